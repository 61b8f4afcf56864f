-- The device's own time (ms, its `ts`) of the newest state and telemetry written in its current
-- connection: an older one, delivered late by another server instance, is dropped
-- (gateway/ingest.ts, docs/decisions/0065). A hello resets both (a rebooted device's clock may be
-- earlier than before).
ALTER TABLE device_state ADD COLUMN state_ts bigint;
ALTER TABLE device_state ADD COLUMN telemetry_ts bigint;
