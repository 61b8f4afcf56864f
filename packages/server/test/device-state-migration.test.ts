import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeviceDetailView } from '@beacon/protocol';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { insertProject } from './devices.helpers.ts';
import { createAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Migration 0008 (docs/decisions/0031) on a database that has devices: what they reported moves to
 * device_state and reads back through the API as before; the moved columns leave `devices`.
 */

const DRIZZLE = path.resolve(import.meta.dirname, '../drizzle');
let server: TestServer | undefined;
let folder: string | undefined;

afterAll(async () => {
  await server?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** A copy of the migrations that ends before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-migrations-'));
  fs.cpSync(DRIZZLE, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  expect(end).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, end);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function newDatabase(): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `beacon_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('migration 0008_device_state', () => {
  it('moves each device’s reported state into device_state and keeps it readable', async () => {
    const url = await newDatabase();
    folder = migrationsBefore('0008_device_state');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.query(
        `insert into devices (sn, model, type, mac, firmware, ip, status, client_count, port_count, ports,
           telemetry, telemetry_at, reported_revision, reported_hash, desired_revision, desired_hash,
           config_status, first_seen_at, last_seen_at)
         values ('MIGRATE00000001', 'BA-W1200C', 'ap', 'AA:BB:CC:00:00:01', '4.3.1', '10.9.8.7', 0, 12, 1,
           '[{"id":1,"type":"lan","enabled":true,"link":true,"speed":1000,"duplex":"full","poe":null,"neighbour":null}]',
           '{"cpu":7}', '2026-11-20T10:00:00Z', 2, 'abc', 3, 'def', 'pending',
           '2026-11-01T00:00:00Z', '2026-11-20T10:00:00Z')`,
      );
    } finally {
      await client.end();
    }

    server = await startTestServer({ DATABASE_URL: url });
    const owner = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    await server.database.pool.query(`update devices set project_id = $1 where sn = 'MIGRATE00000001'`, [
      projectId,
    ]);
    const res = await owner.client.get<DeviceDetailView>(`/projects/${projectId}/devices/MIGRATE00000001`);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data).toMatchObject({
      model: 'BA-W1200C',
      mac: 'AA:BB:CC:00:00:01',
      firmware: '4.3.1',
      ip: '10.9.8.7',
      status: 0,
      clientCount: 12,
      portCount: 1,
      reportedRevision: 2,
      desiredRevision: 3,
      configStatus: 'pending',
      provisioned: false,
      telemetry: { cpu: 7 },
      telemetryAt: '2026-11-20T10:00:00.000Z',
      lastSeenAt: '2026-11-20T10:00:00.000Z',
    });
    expect(res.body.data.ports).toHaveLength(1);
    const left = await server.database.pool.query(
      `select column_name from information_schema.columns
       where table_name = 'devices' and column_name in ('status', 'ip', 'telemetry', 'reported_hash', 'last_seen_at')`,
    );
    expect(left.rows).toEqual([]);
  });
});
