-- Remote management through a tunnel the device opens (docs/decisions/0060): the server no longer
-- connects to an address a device names, so a session keeps the path of the device's page (reached
-- over the device's MQTT link), not a URL. Sessions opened under the earlier protocol end now.
UPDATE "remote_sessions" SET "closed_at" = now() WHERE "closed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "remote_sessions" RENAME COLUMN "device_url" TO "page_path";
--> statement-breakpoint
UPDATE "remote_sessions" SET "page_path" = '/';
