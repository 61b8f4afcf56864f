-- The uptime a device's last hello reported, written by hellos alone: a hello of an earlier connection of
-- the same boot, delivered again after a later one's (a JetStream redelivery), is dropped by it
-- (gateway/ingest.ts isStaleHello, decision 0065). A nullable column: no table rewrite.
ALTER TABLE "device_state" ADD COLUMN "hello_uptime" integer;
