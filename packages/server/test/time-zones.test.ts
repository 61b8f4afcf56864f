import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView, MaintenanceView, ProjectView } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { simulateOnline, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/** Issue 7: project time zones are IANA zones; schedules follow their wall clock across DST. */

const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');
const ZONE_MIGRATION_WHEN = 1795400007000;

describe('the migration of fixed offsets to zones', () => {
  let dir: string;

  /** A database of its own for each attempt (a retry starts from nothing). */
  async function freshDatabase(): Promise<string> {
    const name = `beacon_tz_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(inject('adminDatabaseUrl'));
    u.pathname = `/${name}`;
    return u.toString();
  }

  beforeAll(() => {
    // The migrations as they were before the zones: the same files, the journal cut short.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-tz-'));
    fs.cpSync(MIGRATIONS, dir, { recursive: true });
    const journalPath = path.join(dir, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8'));
    journal.entries = journal.entries.filter((e: { when: number }) => e.when < ZONE_MIGRATION_WHEN);
    fs.writeFileSync(journalPath, JSON.stringify(journal));
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('turns each stored offset into a zone that keeps it, the demo projects into Asia/Shanghai', async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
    try {
      await migrate(drizzle(pool), { migrationsFolder: dir });
      await pool.query(
        `insert into accounts (account, email, password_hash, cloud_id) values ('tz', 'tz@example.com', 'x', 'TZ1')`,
      );
      const offsets = [480, 0, -300, 330, 345, -210, 840, -720, 20];
      for (const [i, minutes] of offsets.entries()) {
        await pool.query(
          `insert into projects (id, owner_id, name, scenario, time_zone) values ($1, (select id from accounts), $2, 'hotel', $3)`,
          [2_000_000 + i, `p${i}`, minutes],
        );
      }
      await pool.query(
        `insert into projects (id, owner_id, name, scenario, time_zone, is_demo) values (500000, (select id from accounts), 'Demo', 'hotel', 480, true)`,
      );
      await pool.query(
        `insert into reboot_schedules (sn, project_id, days, time, time_zone, next_run_at) values ('SN1', 2000000, '[1]', '03:00', 480, now())`,
      );

      await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });

      const { rows } = await pool.query<{ id: number; time_zone: string }>(
        'select id::int, time_zone from projects order by id',
      );
      expect(rows.map((r) => r.time_zone)).toEqual([
        'Asia/Shanghai',
        'Etc/GMT-8',
        'Etc/GMT',
        'Etc/GMT+5',
        'Asia/Kolkata',
        'Asia/Kathmandu',
        'America/St_Johns',
        'Etc/GMT-14',
        'Etc/GMT+12',
        // +00:20 was never offered; the nearest whole hour.
        'Etc/GMT',
      ]);
      const schedule = await pool.query('select time_zone from reboot_schedules');
      expect(schedule.rows).toEqual([{ time_zone: 'Etc/GMT-8' }]);
      const fresh = await pool.query<{ time_zone: string }>(
        `insert into projects (owner_id, name, scenario) values ((select id from accounts), 'new', 'hotel') returning time_zone`,
      );
      expect(fresh.rows[0]!.time_zone).toBe('Asia/Shanghai');
    } finally {
      await pool.end();
    }
  });
});

describe('schedules in a project zone with daylight saving', () => {
  let server: TestServer;
  let owner: TestAccount;
  let ap: SimulatedDevice | undefined;

  beforeAll(async () => {
    server = await startTestServer({ JOB_POLL_MS: '0' });
    owner = await createAccount(server);
  });
  afterAll(async () => {
    await ap?.stop().catch(() => {});
    await server?.close();
  });

  it('"every Monday 03:00" in Europe/Berlin runs at 03:00 local time before and after the change', async () => {
    const created = await owner.client.post<ProjectView>('/projects', {
      name: `tz${randomBytes(3).toString('hex')}`,
      scenario: 'hotel',
      timeZone: 'Europe/Berlin',
    });
    expect(created.body.data.timeZone).toBe('Europe/Berlin');
    const projectId = created.body.data.id;
    const sn = testSn('Z');
    ap = await simulateOnline(server, sn, { timeScale: 0.01 });
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));

    // Friday 20 March 2026, winter time: Monday 23 March 03:00 CET is 02:00Z.
    server.clock.advance(Date.parse('2026-03-20T12:00:00Z') - server.clock.now().getTime());
    const saved = await owner.client.post<ActionResultView>(
      `/projects/${projectId}/devices/${sn}/actions/reboot-schedule`,
      { days: [1], time: '03:00' },
    );
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const read = async () =>
      (await owner.client.get<MaintenanceView>(`/projects/${projectId}/devices/${sn}/maintenance`)).body.data
        .schedule!;
    expect(await read()).toMatchObject({ timeZone: 'Europe/Berlin', nextRunAt: '2026-03-23T02:00:00.000Z' });

    // It fires; the clocks go forward on the 29th, so the next 03:00 is 01:00Z.
    server.clock.advance(Date.parse('2026-03-23T02:00:30Z') - server.clock.now().getTime());
    await server.jobs.tick();
    expect((await read()).nextRunAt).toBe('2026-03-30T01:00:00.000Z');
  });
});
