import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { dropPartitionsBefore, ensureDailyPartitions } from '../db/partitions.ts';
import { devices } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { selectDevices } from '../devices/row.ts';
import { publishEvents } from '../events/bus.ts';
import { SYSTEM_ACTOR } from '../gateway/commands.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import { setBlacklistSection } from './deliver.ts';
import { COUNT_TABLE, dropClientsOf, SESSION_TABLE } from './ingest.ts';

/**
 * The clients' recurring upkeep (decision 0035), one durable job every SAMPLE_MS chained by slot
 * keys (like config/convergence.ts, so several instances make one chain):
 * - clients of devices that are no longer online (the away watchdog, a lost broker) leave;
 * - the kept count of each project's online clients is folded into one row (and set right);
 * - one sample of the clients online per project, band and SSID goes into `client_counts` (the
 *   clients-over-time charts read it);
 * - partitions for today and the next two days exist; those older than RETENTION_DAYS are dropped;
 * - Wi-Fi devices whose configuration lacks the project's blacklist (added to the project since
 *   it last changed) get it, up to BLACKLIST_BATCH a run.
 */

export const CLIENTS_UPKEEP_JOB = 'clients-upkeep';
export const SAMPLE_MS = 5 * 60_000;
/** Sessions and count samples are kept this long (the longest chart is 30 days). */
export const RETENTION_DAYS = 31;
const DAY_MS = 86_400_000;
const BLACKLIST_BATCH = 100;

const slotKey = (at: Date) => `${CLIENTS_UPKEEP_JOB}:${Math.floor(at.getTime() / SAMPLE_MS) + 1}`;
const slotTime = (at: Date) => new Date((Math.floor(at.getTime() / SAMPLE_MS) + 1) * SAMPLE_MS);

export function registerClientsUpkeep(runner: JobRunner, database: Database, gateway: Gateway): void {
  runner.register(
    CLIENTS_UPKEEP_JOB,
    async ({ tx, now, afterCommit }) => {
      await ensureDailyPartitions(database.pool, SESSION_TABLE, now, new Date(now.getTime() + 2 * DAY_MS));
      await ensureDailyPartitions(database.pool, COUNT_TABLE, now, new Date(now.getTime() + 2 * DAY_MS));
      const cutoff = new Date(now.getTime() - RETENTION_DAYS * DAY_MS);
      await dropPartitionsBefore(database.pool, SESSION_TABLE, cutoff);
      await dropPartitionsBefore(database.pool, COUNT_TABLE, cutoff);
      const stale = await tx.execute<{ sn: string }>(sql`
      select distinct oc.sn from online_clients oc
        left join device_state ds on ds.sn = oc.sn
        left join devices d on d.sn = oc.sn
       where ds.status is null or ds.status in (0, 9) or d.project_id is distinct from oc.project_id`);
      if (stale.rows.length) {
        await publishEvents(
          tx,
          await dropClientsOf(
            tx,
            stale.rows.map((r) => r.sn),
            now,
            // Checked again under the row locks: a device may have come back since the query above.
            { stale: true },
          ),
        );
      }
      // The kept counts (decision 0044): each project's delta rows become one, the count of its rows.
      // One statement, one snapshot: a batch that commits meanwhile keeps its own delta row, which
      // the count does not include.
      await tx.execute(sql`
      with folded as (delete from client_online_deltas returning 1)
      insert into client_online_deltas (project_id, delta)
      select project_id, count(*)::int from online_clients group by 1`);
      // The kept device counts by project and type (decision 0069, migration 0030), folded and recounted
      // the same way: drift left by a race between a move and a status change is healed here.
      await tx.execute(sql`
      with folded as (delete from device_count_deltas returning 1)
      insert into device_count_deltas (project_id, type, online, offline, clients)
      select d.project_id, d.type,
             count(*) filter (where not (s.status = any(array[0, 9])))::int,
             count(*) filter (where s.status = any(array[0, 9]))::int,
             coalesce(sum(s.client_count) filter (where not (s.status = any(array[0, 9]))), 0)
        from devices d join device_state s on s.sn = d.sn
       where d.project_id is not null group by 1, 2`);
      // The sample is taken at the slot's start, so instances and retries agree on its time.
      const at = new Date(Math.floor(now.getTime() / SAMPLE_MS) * SAMPLE_MS);
      await tx.execute(sql`delete from client_counts where at = ${at.toISOString()}::timestamptz`);
      await tx.execute(sql`
      insert into client_counts (project_id, at, band, ssid, clients)
      select project_id, ${at.toISOString()}::timestamptz,
             coalesce(band, case when wired then 'wired' else 'unknown' end), coalesce(ssid, ''), count(*)::int
        from online_clients group by 1, 3, 4`);
      // Devices behind the project's blacklist (the section is plain JSON: never a sealed secret).
      const behind = await tx.execute<{ sn: string; macs: string[] }>(sql`
      select d.sn, coalesce(b.macs, '[]'::jsonb) as macs from devices d
        left join (select project_id, jsonb_agg(mac order by mac) as macs from client_blacklist
                    group by project_id) b on b.project_id = d.project_id
       where d.project_id is not null and d.capabilities ? 'wifi' and d.management_mode = 1
         and coalesce(d.desired_config -> 'clientBlacklist', '[]'::jsonb) <> coalesce(b.macs, '[]'::jsonb)
       order by d.sn limit ${BLACKLIST_BATCH}
       for update of d skip locked`);
      if (behind.rows.length) {
        const macsOf = new Map(behind.rows.map((r) => [r.sn, r.macs]));
        const rows = await selectDevices(tx).where(inTexts(devices.sn, [...macsOf.keys()]));
        const pushed: string[] = [];
        for (const row of rows) {
          const macs = macsOf.get(row.sn) ?? [];
          if (await setBlacklistSection(tx, gateway.commands.secrets, row, macs, SYSTEM_ACTOR, now)) {
            pushed.push(row.sn);
          }
        }
        afterCommit(() => {
          for (const sn of pushed) gateway.commands.converge(sn);
        });
      }
      await addJobs(tx, [{ kind: CLIENTS_UPKEEP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
    },
    { deferWhileBusy: true },
  );
}

/** Starts the chain (every instance at start; the slot key keeps it one) with today's partitions. */
export async function startClientsUpkeep(database: Database, now: Date): Promise<void> {
  await ensureDailyPartitions(database.pool, SESSION_TABLE, now, new Date(now.getTime() + 2 * DAY_MS));
  await ensureDailyPartitions(database.pool, COUNT_TABLE, now, new Date(now.getTime() + 2 * DAY_MS));
  await addJobs(database.db, [{ kind: CLIENTS_UPKEEP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
}
