-- Solutions (src/solutions/, docs/decisions/0054): an account's generated solutions, their inputs and
-- computed recommendation, and the accounts each is shared with read-only. The cloud-managed model
-- list (src/models/, decision 0055): models uploaded beside the built-in catalogue, one per name
-- whatever its case.
CREATE TABLE IF NOT EXISTS "solutions" (
  "id" serial PRIMARY KEY,
  "owner_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "scenario" text NOT NULL,
  "input" jsonb NOT NULL,
  "recommendation" jsonb NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "solutions_owner_idx" ON "solutions" ("owner_id", "updated_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "solution_shares" (
  "solution_id" integer NOT NULL REFERENCES "solutions"("id") ON DELETE CASCADE,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "shared_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("solution_id", "account_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "solution_shares_account_idx" ON "solution_shares" ("account_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "cloud_models" (
  "id" serial PRIMARY KEY,
  "model" text NOT NULL,
  "brand" text NOT NULL,
  "type" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "ports" integer NOT NULL,
  "poe_ports" integer NOT NULL DEFAULT 0,
  "poe_budget" real NOT NULL DEFAULT 0,
  "bands" jsonb NOT NULL DEFAULT '[]',
  "min_vlan" integer NOT NULL DEFAULT 10,
  "max_vlan" integer NOT NULL DEFAULT 4094,
  "capabilities" jsonb NOT NULL DEFAULT '[]',
  "uploaded_by" integer REFERENCES "accounts"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "cloud_models_model_uq" ON "cloud_models" (upper("model"));
