-- Monitoring reads at scale (docs/decisions/0044-monitoring-reads-at-scale.md).
--
-- Online clients: the list's default order (longest online first, then MAC) is an index, and a
-- telemetry rewrite of a client that changes no indexed column stays on its page (HOT update: no
-- new index entries) thanks to free space left on each page.
ALTER TABLE "online_clients" SET (fillfactor = 80);--> statement-breakpoint
CREATE INDEX "online_clients_joined_idx" ON "online_clients" ("project_id", "joined_at", "mac");--> statement-breakpoint
-- The kept count of each project's online clients: every statement that inserts or deletes rows of
-- online_clients (the ingest batch, a last will, force offline, the upkeep job, a cascade) appends
-- one row per project with what it changed; insert-only, so concurrent batches never wait on each
-- other. The clients upkeep job folds the rows into one per project. The count is the sum.
CREATE TABLE "client_online_deltas" (
	"project_id" bigint NOT NULL,
	"delta" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "client_online_deltas_project_idx" ON "client_online_deltas" ("project_id");--> statement-breakpoint
INSERT INTO "client_online_deltas" ("project_id", "delta")
	SELECT "project_id", count(*)::int FROM "online_clients" GROUP BY 1;--> statement-breakpoint
CREATE FUNCTION beacon_online_clients_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "client_online_deltas" ("project_id", "delta")
		SELECT "project_id", count(*)::int FROM added_rows GROUP BY 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION beacon_online_clients_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "client_online_deltas" ("project_id", "delta")
		SELECT "project_id", -count(*)::int FROM removed_rows GROUP BY 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- For INSERT … ON CONFLICT DO UPDATE the insert trigger's table holds the inserted rows only. No
-- statement changes a row's project_id (it is the key the upsert conflicts on).
CREATE TRIGGER "online_clients_added" AFTER INSERT ON "online_clients" REFERENCING NEW TABLE AS added_rows
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_online_clients_added();--> statement-breakpoint
CREATE TRIGGER "online_clients_removed" AFTER DELETE ON "online_clients" REFERENCING OLD TABLE AS removed_rows
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_online_clients_removed();--> statement-breakpoint
-- Per-project series of radios and SSIDs (the Device data screen's band and SSID charts): one row
-- per project, bucket and key, kept by the rollup job from stats_dim_1h / stats_dim_1d, so a 30-day
-- chart reads ~150 rows instead of five per device and day. Small: not partitioned, retention by row.
CREATE TABLE "stats_project_dim_1h" (
	"bucket" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"clients" real,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL,
	PRIMARY KEY ("project_id", "bucket", "kind", "key")
);--> statement-breakpoint
CREATE TABLE "stats_project_dim_1d" (LIKE "stats_project_dim_1h" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "bucket", "kind", "key"));--> statement-breakpoint
INSERT INTO "stats_project_dim_1h" ("bucket", "project_id", "kind", "key", "clients", "rx_bytes", "tx_bytes")
	SELECT "bucket", "project_id", "kind", "key", sum("clients_avg"), sum("rx_bytes"), sum("tx_bytes")
	FROM "stats_dim_1h" WHERE "kind" IN ('radio', 'ssid') GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "stats_project_dim_1d" ("bucket", "project_id", "kind", "key", "clients", "rx_bytes", "tx_bytes")
	SELECT "bucket", "project_id", "kind", "key", sum("clients_avg"), sum("rx_bytes"), sum("tx_bytes")
	FROM "stats_dim_1d" WHERE "kind" IN ('radio', 'ssid') GROUP BY 1, 2, 3, 4;--> statement-breakpoint
-- Top lists (Status: top 5 APs; Device data: top 10 by CPU, memory, clients, traffic) kept by the
-- rollup job for every range. stats_device_span: each device's sums over the range's final buckets
-- (before the level's watermark), recomputed when the range's start or the watermark moves (hourly
-- or daily); stats_top: each project's ranked devices (span + the buckets after the watermark),
-- recomputed every run; stats_top_state: what each range's rows were computed for.
-- The rollup job reads the buckets after the watermark of every device (today's, this hour's).
CREATE INDEX "stats_device_1h_bucket" ON "stats_device_1h" ("bucket");--> statement-breakpoint
CREATE INDEX "stats_device_1d_bucket" ON "stats_device_1d" ("bucket");--> statement-breakpoint
CREATE TABLE "stats_device_span" (
	"range" text NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"samples" bigint NOT NULL,
	"clients_w" double precision NOT NULL,
	"cpu_w" double precision NOT NULL,
	"memory_w" double precision NOT NULL,
	"bytes" numeric NOT NULL,
	PRIMARY KEY ("range", "project_id", "sn")
);--> statement-breakpoint
CREATE TABLE "stats_top" (
	"range" text NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"clients" double precision NOT NULL,
	"cpu" double precision NOT NULL,
	"memory" double precision NOT NULL,
	"bytes" numeric NOT NULL,
	"rank_clients" integer NOT NULL,
	"rank_cpu" integer NOT NULL,
	"rank_memory" integer NOT NULL,
	"rank_bytes" integer NOT NULL,
	"rank_ap_clients" integer,
	"rank_ap_bytes" integer,
	PRIMARY KEY ("range", "project_id", "sn")
);--> statement-breakpoint
CREATE TABLE "stats_top_state" (
	"range" text PRIMARY KEY NOT NULL,
	"top_start" timestamp with time zone NOT NULL,
	"span_end" timestamp with time zone NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
