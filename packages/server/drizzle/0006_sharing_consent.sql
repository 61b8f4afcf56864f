ALTER TABLE "project_members" ADD COLUMN "via" text DEFAULT 'share' NOT NULL;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_via_ck" CHECK ("project_members"."via" in ('share', 'invite'));--> statement-breakpoint
UPDATE "project_members" AS m SET "via" = 'invite', "permission" = 'r' WHERE m."accepted_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "share_invites" i WHERE i."project_id" = m."project_id" AND i."used_by" = m."account_id");--> statement-breakpoint
DELETE FROM "project_members" WHERE "accepted_at" IS NULL;--> statement-breakpoint
CREATE TABLE "share_offers" (
	"project_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"permission" text NOT NULL,
	"valid_hours" integer,
	"offered_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "share_offers_project_id_account_id_pk" PRIMARY KEY("project_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "share_offers" ADD CONSTRAINT "share_offers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_offers" ADD CONSTRAINT "share_offers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_offers" ADD CONSTRAINT "share_offers_offered_by_accounts_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_offers_account_idx" ON "share_offers" USING btree ("account_id");--> statement-breakpoint
CREATE TABLE "project_transfers" (
	"project_id" bigint PRIMARY KEY NOT NULL,
	"from_account_id" integer NOT NULL,
	"to_account_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_transfers" ADD CONSTRAINT "project_transfers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_transfers" ADD CONSTRAINT "project_transfers_from_account_id_accounts_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_transfers" ADD CONSTRAINT "project_transfers_to_account_id_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_transfers_to_idx" ON "project_transfers" USING btree ("to_account_id");
