-- API key scopes and limits, subordinate accounts, the device-joining alert (issue 15;
--> statement-breakpoint
-- docs/decisions/0058-api-key-scopes-and-openapi-routes.md, 0059-subordinate-accounts-and-roles.md).

-- A key is read-only or read-write, optionally limited to some projects, optionally expiring, with
-- its own per-minute rate. Keys created before this migration keep what they could do: read-write.
ALTER TABLE "api_keys" ADD COLUMN IF NOT EXISTS "scope" text NOT NULL DEFAULT 'read-write'
  CHECK ("scope" IN ('read', 'read-write'));
--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "scope" SET DEFAULT 'read';
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN IF NOT EXISTS "project_ids" bigint[];
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN IF NOT EXISTS "expires_at" timestamptz;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN IF NOT EXISTS "rate_per_minute" integer NOT NULL DEFAULT 600;
--> statement-breakpoint

-- The shared rate counter: one row per key and minute, counted with an upsert, so every server
-- instance counts against the same figure.
CREATE TABLE IF NOT EXISTS "api_key_usage" (
  "key_id" integer NOT NULL REFERENCES "api_keys"("id") ON DELETE CASCADE,
  "window_start" timestamptz NOT NULL,
  "calls" integer NOT NULL,
  PRIMARY KEY ("key_id", "window_start")
);
--> statement-breakpoint

-- Subordinate accounts: the main account that created them and their level (guest 0, admin 1).
ALTER TABLE "accounts" ADD COLUMN IF NOT EXISTS "parent_id" integer REFERENCES "accounts"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN IF NOT EXISTS "level" smallint CHECK ("level" IN (0, 1));
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_level_with_parent" CHECK (("parent_id" IS NULL) = ("level" IS NULL));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_parent_idx" ON "accounts" ("parent_id") WHERE "parent_id" IS NOT NULL;
--> statement-breakpoint
-- The joining alert lists devices first seen after this moment (null: since the account was created).
ALTER TABLE "accounts" ADD COLUMN IF NOT EXISTS "joined_seen_through" timestamptz;
--> statement-breakpoint

-- A project given to a subordinate account is a membership of its own kind.
ALTER TABLE "project_members" DROP CONSTRAINT IF EXISTS "project_members_via_ck";
--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_via_ck"
  CHECK ("via" IN ('share', 'invite', 'subordinate'));
--> statement-breakpoint

CREATE INDEX IF NOT EXISTS "devices_first_seen_idx" ON "devices" ("project_id", "first_seen_at")
  WHERE "first_seen_at" IS NOT NULL;
