-- Online clients (docs/decisions/0035-online-clients.md): the clients online now, one row per
-- client of a project, replaced by each device's telemetry; the sessions of clients that left and a
-- 5-minute count sample per band and SSID, both partitioned by UTC day (src/db/partitions.ts); the
-- project's client blacklist that its devices enforce.
CREATE TABLE "online_clients" (
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"mac" text NOT NULL,
	"sn" text NOT NULL REFERENCES "devices"("sn") ON DELETE CASCADE,
	"name" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"wired" boolean DEFAULT false NOT NULL,
	"ssid" text,
	"band" text,
	"rssi" smallint,
	"tx_rate" real DEFAULT 0 NOT NULL,
	"rx_rate" real DEFAULT 0 NOT NULL,
	"tx_bytes" bigint DEFAULT 0 NOT NULL,
	"rx_bytes" bigint DEFAULT 0 NOT NULL,
	"vlan" integer,
	"joined_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("project_id", "mac")
);
--> statement-breakpoint
CREATE INDEX "online_clients_sn_idx" ON "online_clients" ("sn");
--> statement-breakpoint
CREATE TABLE "client_sessions" (
	"project_id" bigint NOT NULL,
	"mac" text NOT NULL,
	"sn" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"ssid" text,
	"band" text,
	"tx_bytes" bigint DEFAULT 0 NOT NULL,
	"rx_bytes" bigint DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL
) PARTITION BY RANGE ("ended_at");
--> statement-breakpoint
CREATE INDEX "client_sessions_project_idx" ON "client_sessions" ("project_id", "ended_at");
--> statement-breakpoint
CREATE TABLE "client_counts" (
	"project_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"band" text NOT NULL,
	"ssid" text NOT NULL,
	"clients" integer NOT NULL
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "client_counts_project_idx" ON "client_counts" ("project_id", "at");
--> statement-breakpoint
CREATE TABLE "client_blacklist" (
	"project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"mac" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("project_id", "mac")
);
