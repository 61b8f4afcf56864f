-- The project's Wi-Fi policies as revisions (src/wifi/, docs/decisions/0047): one document of
-- policies per revision, secrets (pre-shared keys, RADIUS secrets) sealed; compiled into the
-- targeted devices' own revisions (config_revisions) in the same transaction.
CREATE TABLE IF NOT EXISTS "wifi_revisions" (
  "project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "revision" integer NOT NULL,
  "document" jsonb NOT NULL,
  "hash" text NOT NULL,
  "author_id" integer REFERENCES "accounts"("id") ON DELETE SET NULL,
  "author_name" text NOT NULL,
  "reason" text NOT NULL DEFAULT '',
  "created_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("project_id", "revision")
);
