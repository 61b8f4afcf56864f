-- Alarms (docs/decisions/0037): one row per incident, per-project delivery settings, deliveries
-- with their outcome, maintenance windows.
CREATE TABLE "alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"sn" text NOT NULL,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"mac" text,
	"model" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"cleared_at" timestamp with time zone,
	"read" smallint DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone,
	"read_by" bigint,
	"event_id" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_uq" ON "alarms" ("sn", "kind") WHERE "cleared_at" is null;--> statement-breakpoint
CREATE INDEX "alarms_project_idx" ON "alarms" ("project_id", "raised_at");--> statement-breakpoint
CREATE INDEX "alarms_unread_idx" ON "alarms" ("project_id") WHERE "read" = 0;--> statement-breakpoint
CREATE TABLE "alarm_settings" (
	"project_id" bigint PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"offline_minutes" integer DEFAULT 5 NOT NULL,
	"cpu_percent" integer DEFAULT 90 NOT NULL,
	"memory_percent" integer DEFAULT 90 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"alarm_id" bigint NOT NULL REFERENCES "alarms"("id") ON DELETE cascade,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "alarm_deliveries_project_idx" ON "alarm_deliveries" ("project_id", "id");--> statement-breakpoint
CREATE TABLE "alarm_windows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"sns" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" bigint
);
--> statement-breakpoint
CREATE INDEX "alarm_windows_project_idx" ON "alarm_windows" ("project_id", "ends_at");
