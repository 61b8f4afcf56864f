import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * Migration 0011 (docs/decisions/0036) on a database that has device events: they move into the
 * day partitions with their ids; one older than 180 days is not kept; a far-future device time is
 * dated at its receipt; the id sequence carries on; a repeated event is still refused.
 */

const DRIZZLE = path.resolve(import.meta.dirname, '../drizzle');
let folder: string | undefined;

afterAll(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

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

describe('migration 0011_logs', () => {
  it('moves device events into day partitions', async () => {
    const adminUrl = inject('adminDatabaseUrl');
    const name = `beacon_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      folder = migrationsBefore('0011_logs');
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.query(`
        insert into device_events (sn, event_id, at, event, level, message, received_at) values
          ('MIGRATEDEVICE001', 'a', now() - interval '3 days', 'port-up', 'info', 'three days ago', now()),
          ('MIGRATEDEVICE001', 'b', now() - interval '200 days', 'port-up', 'info', 'too old', now()),
          ('MIGRATEDEVICE001', 'c', now() + interval '3 years', 'port-up', 'info', 'wrong clock', now() - interval '1 hour')`);
      const before = await client.query<{ id: number; event_id: string }>(
        'select id, event_id from device_events order by event_id',
      );
      await migrate(drizzle(client), { migrationsFolder: DRIZZLE });

      const rows = await client.query<{
        id: string;
        event_id: string;
        part: string;
        at: Date;
        received_at: Date;
      }>(
        `select id, event_id, tableoid::regclass::text as part, at, received_at from device_events order by event_id`,
      );
      expect(rows.rows.map((r) => r.event_id)).toEqual(['a', 'c']);
      expect(Number(rows.rows[0].id)).toBe(Number(before.rows[0].id));
      for (const r of rows.rows) expect(r.part).toMatch(/^device_events_p\d{8}$/);
      expect(rows.rows[1].at.getTime()).toBe(rows.rows[1].received_at.getTime());
      const parent = await client.query(`select relkind from pg_class where relname = 'device_events'`);
      expect(parent.rows[0].relkind).toBe('p');

      const next = await client.query<{ id: string }>(
        `insert into device_events (sn, event_id, at, event, level, message) values
           ('MIGRATEDEVICE001', 'd', now(), 'port-down', 'warning', 'new') returning id`,
      );
      expect(Number(next.rows[0].id)).toBeGreaterThan(Math.max(...before.rows.map((r) => Number(r.id))));
      await expect(
        client.query(
          `insert into device_events (sn, event_id, at, event, level, message)
             select sn, event_id, at, event, level, message from device_events where event_id = 'd'`,
        ),
      ).rejects.toThrow(/duplicate key/);
      await expect(
        client.query(`insert into project_log_settings (project_id, retention_days) values (1, 14)`),
      ).rejects.toThrow();
    } finally {
      await client.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name}`);
      await cleanup.end();
    }
  });
});
