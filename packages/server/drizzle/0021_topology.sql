-- Network topology (src/topology/, docs/decisions/0050): what each device last reported about its
-- links (LLDP-style neighbours, wireless uplinks, the gateway's internet link), and the user's
-- device-type code per node of a project's topology (SPEC.md §3, 1 to 12).
CREATE TABLE IF NOT EXISTS "device_links" (
  "sn" text PRIMARY KEY REFERENCES "devices"("sn") ON DELETE CASCADE,
  "links" jsonb NOT NULL,
  "internet" jsonb,
  "hash" text NOT NULL,
  "reported_at" timestamptz NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "topology_node_types" (
  "project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "node" text NOT NULL,
  "code" smallint NOT NULL CHECK ("code" BETWEEN 1 AND 12),
  "updated_at" timestamptz NOT NULL,
  CONSTRAINT "topology_node_types_pkey" PRIMARY KEY ("project_id", "node")
);
