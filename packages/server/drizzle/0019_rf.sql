-- RF optimisation and the Wi-Fi country (issue 11, docs/decisions/0048).
-- A project's Wi-Fi country, its last change and the scheduled automatic runs; no row = defaults.
CREATE TABLE "rf_settings" (
	"project_id" bigint PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"country" text DEFAULT 'CN' NOT NULL,
	"country_changed_at" timestamp with time zone,
	"adapt_revisions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"schedule_enabled" boolean DEFAULT false NOT NULL,
	"schedule_days" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"schedule_time" text DEFAULT '03:00' NOT NULL,
	"next_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- RF runs (manual and automatic), with their plan and records before and after. One running run
-- per project: the partial unique index refuses a second one even when two start at once (27).
CREATE TABLE "rf_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"code" integer,
	"message" text,
	"changed" boolean DEFAULT false NOT NULL,
	"devices" text[] DEFAULT '{}'::text[] NOT NULL,
	"plan" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"records" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"score_before" real,
	"score_after" real,
	"score_planned" real,
	"co_channel_before" integer,
	"co_channel_after" integer,
	"author_id" bigint,
	"author_name" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "rf_runs_project_idx" ON "rf_runs" USING btree ("project_id","started_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "rf_runs_one_running" ON "rf_runs" USING btree ("project_id") WHERE "rf_runs"."state" = 'running';
