-- Client list at scale, the other orders and the search (docs/decisions/0062-client-list-orders-and-search.md).
--
-- The columns a telemetry does not change (name, IP, SSID, band, client type) get an index per sort
-- direction in the list's exact order (the column, nulls last, then MAC ascending), so a page of any
-- of those orders is an index scan that stops after the page instead of a sort of every online client
-- of the project. The counters (RSSI, bytes, rates) change every telemetry and stay unindexed: an
-- index on them would end the HOT updates of decision 0044.
CREATE INDEX "online_clients_name_idx" ON "online_clients" ("project_id", "name", "mac");--> statement-breakpoint
CREATE INDEX "online_clients_name_desc_idx" ON "online_clients" ("project_id", "name" DESC NULLS LAST, "mac");--> statement-breakpoint
CREATE INDEX "online_clients_ip_idx" ON "online_clients" ("project_id", "ip", "mac");--> statement-breakpoint
CREATE INDEX "online_clients_ip_desc_idx" ON "online_clients" ("project_id", "ip" DESC NULLS LAST, "mac");--> statement-breakpoint
CREATE INDEX "online_clients_ssid_idx" ON "online_clients" ("project_id", "ssid", "mac");--> statement-breakpoint
CREATE INDEX "online_clients_ssid_desc_idx" ON "online_clients" ("project_id", "ssid" DESC NULLS LAST, "mac");--> statement-breakpoint
CREATE INDEX "online_clients_band_idx" ON "online_clients" ("project_id", "band", "mac");--> statement-breakpoint
CREATE INDEX "online_clients_band_desc_idx" ON "online_clients" ("project_id", "band" DESC NULLS LAST, "mac");--> statement-breakpoint
CREATE INDEX "online_clients_kind_idx" ON "online_clients" ("project_id", "kind", "mac");--> statement-breakpoint
CREATE INDEX "online_clients_kind_desc_idx" ON "online_clients" ("project_id", "kind" DESC NULLS LAST, "mac");--> statement-breakpoint
-- The free-text search (`q`, and the name, IP and MAC filters: substring, case-insensitive) reads a
-- trigram index of the three fields together; the exact per-field condition is checked on the rows
-- it finds. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension (PostgreSQL 13+).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "online_clients_search_idx" ON "online_clients"
	USING gin (("name" || ' ' || "ip" || ' ' || "mac") gin_trgm_ops);
