import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  clampToWindow,
  dropPartitionsBefore,
  ensureDailyPartitions,
  listPartitions,
} from '../src/db/partitions.ts';

/** Daily partitions on a real PostgreSQL: made ahead, made once under concurrency, dropped by age. */

let admin: pg.Client;
let pool: pg.Pool;
let dbName: string;
const day = (s: string) => new Date(`${s}T00:00:00Z`);

beforeAll(async () => {
  dbName = `beacon_t_${randomBytes(6).toString('hex')}`;
  admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${dbName}`;
  pool = new pg.Pool({ connectionString: url.toString(), max: 6 });
  await pool.query('create table samples (at timestamptz not null, v int) partition by range (at)');
});

afterAll(async () => {
  await pool?.end();
  await admin?.query(`drop database if exists ${dbName}`);
  await admin?.end();
});

describe('daily partitions', () => {
  it('makes one partition per UTC day, once, even when several callers race', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        ensureDailyPartitions(pool, 'samples', day('2026-11-23'), day('2026-11-25')),
      ),
    );
    expect(results.flat().sort()).toEqual(['samples_p20261123', 'samples_p20261124', 'samples_p20261125']);
    const parts = await listPartitions(pool, 'samples');
    expect(parts.map((p) => p.name)).toEqual(['samples_p20261123', 'samples_p20261124', 'samples_p20261125']);
    await pool.query(`insert into samples values ('2026-11-24T23:59:59Z', 1), ('2026-11-25T00:00:00Z', 2)`);
    const { rows } = await pool.query('select tableoid::regclass::text as part, v from samples order by v');
    expect(rows).toEqual([
      { part: 'samples_p20261124', v: 1 },
      { part: 'samples_p20261125', v: 2 },
    ]);
  });

  it('refuses a row for a day without a partition (no default partition catches it)', async () => {
    await expect(pool.query(`insert into samples values ('2030-01-01T00:00:00Z', 3)`)).rejects.toThrow(
      /no partition/,
    );
  });

  it('drops whole partitions that end at or before the cutoff, with their rows', async () => {
    const dropped = await dropPartitionsBefore(pool, 'samples', day('2026-11-25'));
    expect(dropped).toEqual(['samples_p20261123', 'samples_p20261124']);
    const { rows } = await pool.query('select v from samples');
    expect(rows).toEqual([{ v: 2 }]);
  });

  it('refuses a table name that is not a plain identifier', async () => {
    await expect(
      ensureDailyPartitions(pool, 'samples; drop table x', new Date(), new Date()),
    ).rejects.toThrow();
  });

  it('clamps a device time outside the kept window to now', () => {
    const now = day('2026-11-24');
    expect(clampToWindow(day('2020-01-01'), now, 86_400_000, 300_000)).toEqual(now);
    expect(clampToWindow(new Date(now.getTime() + 3_600_000), now, 86_400_000, 300_000)).toEqual(now);
    const fine = new Date(now.getTime() - 60_000);
    expect(clampToWindow(fine, now, 86_400_000, 300_000)).toEqual(fine);
    expect(clampToWindow(new Date(Number.NaN), now, 86_400_000, 300_000)).toEqual(now);
  });
});
