CREATE TABLE "firmware_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL,
	"model" text NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reboot_schedules" (
	"sn" text PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL,
	"days" jsonb NOT NULL,
	"time" text NOT NULL,
	"time_zone" integer NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone,
	"account_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_sessions" (
	"token" text PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"project_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"device_url" text NOT NULL,
	"device_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "firmware_images" ADD CONSTRAINT "firmware_images_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_images" ADD CONSTRAINT "firmware_images_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reboot_schedules" ADD CONSTRAINT "reboot_schedules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reboot_schedules" ADD CONSTRAINT "reboot_schedules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_images_project_idx" ON "firmware_images" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "reboot_schedules_project_idx" ON "reboot_schedules" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "remote_sessions_sn_idx" ON "remote_sessions" USING btree ("sn","created_at");