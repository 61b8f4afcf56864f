-- The project's desired network configuration as revisions (src/network/, docs/decisions/0038):
-- one document per revision (WAN, LAN, VLANs, DHCP pools, static routes, port mappings), secrets
-- sealed; compiled into the devices' own revisions (config_revisions) in the same transaction.
CREATE TABLE IF NOT EXISTS "network_revisions" (
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
