-- When the device's current MQTT connection was made, as its hello says: a last will stamped
-- earlier belongs to a connection gone before and is ignored (gateway/ingest.ts).
ALTER TABLE device_state ADD COLUMN connected_at timestamptz;
