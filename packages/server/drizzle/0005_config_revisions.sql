CREATE TABLE "config_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint,
	"sn" text,
	"revision" integer NOT NULL,
	"document" jsonb NOT NULL,
	"hash" text NOT NULL,
	"author_id" integer,
	"author_name" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "config_revisions" ADD CONSTRAINT "config_revisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_revisions" ADD CONSTRAINT "config_revisions_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "config_revisions_device_uq" ON "config_revisions" USING btree ("sn","revision") WHERE "config_revisions"."sn" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "config_revisions_project_uq" ON "config_revisions" USING btree ("project_id","revision") WHERE "config_revisions"."sn" is null;--> statement-breakpoint
CREATE INDEX "config_revisions_project_idx" ON "config_revisions" USING btree ("project_id","sn","revision");--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "desired_hash" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_hash" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "config_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "config_retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "devices_config_retry_idx" ON "devices" USING btree ("config_retry_at") WHERE "devices"."config_retry_at" is not null;
--> statement-breakpoint
UPDATE "devices" SET "config_retry_at" = now() WHERE "config_status" = 'pending';
