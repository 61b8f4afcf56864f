CREATE TABLE "project_departures" (
	"project_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "project_departures_project_id_account_id_pk" PRIMARY KEY("project_id","account_id"),
	CONSTRAINT "project_departures_reason_ck" CHECK ("project_departures"."reason" in ('expired', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "project_departures" ADD CONSTRAINT "project_departures_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_departures" ADD CONSTRAINT "project_departures_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_departures_account_idx" ON "project_departures" USING btree ("account_id");