-- A client taken offline by force (clients/service.ts forceOffline) is not listed again by a telemetry
-- its device sent before it dropped the client and the server wrote after (clients/ingest.ts reads the
-- forced sessions that ended after a batch's oldest message arrived). Force offline is rare: a partial
-- index of those sessions keeps that read a few index entries whatever the size of a day's sessions.
CREATE INDEX "client_sessions_forced_idx" ON "client_sessions" ("ended_at") WHERE "reason" = 'forced';
