import {
  BackupSyncState,
  BackupTrigger,
  BackupType,
  Codes,
  configHash,
  errorMessage,
  getConfigReplySchema,
  LIMITS,
  ManagementMode,
  NetMode,
  ONLINE_STATUSES,
} from '@beacon/protocol';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { recordAudits } from '../audit/audit.ts';
import type { Database, Tx } from '../db/client.ts';
import { configBackups } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type CommandOutcome, SYSTEM_ACTOR } from '../gateway/commands.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import { buildBackupFile } from './file.ts';
import { pruneGeneral } from './repository.ts';

/**
 * Taking backups (docs/decisions/0049). A backup row is unsynchronized until its device is online;
 * then one instance claims it (FOR UPDATE SKIP LOCKED → synchronizing) and asks the device for the
 * configuration it runs (get-config, many devices at once through sendToMany); the answer, checked
 * (bounded schema, the device's own hash), becomes the file (secrets sealed, checksum) and the row
 * synchronized — the older restore point of the device, or the oldest general backups past 128,
 * go in the same transaction. A busy, away or silent device puts the row back for another try (at
 * most ATTEMPTS); anything else fails it with the device's code.
 *
 * The recurring job `config-backup` (every INTERVAL_MS) adds the automatic backups (after a change
 * the device applied, and on the project's schedule; at most one per device every 3 minutes),
 * gives up on rows whose device stayed away for a day, puts back rows an instance left
 * synchronizing, and kicks the sender. Requests kick it at once after their commit.
 */

/** A device in any online state (ONLINE_NOT_SAVED too: it has just applied a change) answers get-config. */
const ONLINE_CODES = sql.raw(ONLINE_STATUSES.join(', '));

export const CONFIG_BACKUP_JOB = 'config-backup';
const INTERVAL_MS = 10_000;
/** Devices asked at once per claim, and claims in flight per instance. */
const BATCH = 250;
const IN_FLIGHT = 4;
const ATTEMPTS = 3;
/** A row left synchronizing this long (its instance went away) is tried again. */
const STALE_MS = 5 * 60_000;
/** A row whose device stays away this long fails with 36. */
const WAIT_MS = 24 * 3_600_000;
const BUSY = new Set<number>([
  Codes.DEVICE_OFFLINE,
  Codes.UPGRADING,
  Codes.REPEATED_CLICKS,
  Codes.DEVICE_BUSY,
  Codes.COMMAND_TIMEOUT,
]);

type SyncDeps = Pick<Deps, 'database' | 'gateway' | 'now' | 'log'>;

type Claimed = {
  id: number;
  projectId: number;
  sn: string;
  model: string;
  mac: string | null;
  firmware: string | null;
  type: string;
  attempts: number;
};

export class BackupSync {
  private running = 0;
  private again = false;
  private stopped = false;

  constructor(private readonly d: SyncDeps) {}

  /** Claims and takes every due backup (online devices), until none is left. */
  kick(): void {
    if (this.stopped) return;
    if (this.running >= IN_FLIGHT) {
      this.again = true;
      return;
    }
    this.running += 1;
    void this.loop()
      .catch((err) => {
        if (!this.stopped) this.d.log.warn({ err: (err as Error).message }, 'configuration backup failed');
      })
      .finally(() => {
        this.running -= 1;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      // More may be due: let another loop claim the next batch while this one waits for replies.
      if (claimed.length === BATCH && this.running < IN_FLIGHT) this.kick();
      const outcomes = await this.d.gateway.commands.sendToMany(
        claimed.map((c) => c.sn),
        'get-config',
        {},
        SYSTEM_ACTOR,
      );
      await this.store(claimed, outcomes);
    }
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.d.now();
    const { rows } = await this.d.database.db.execute<Claimed>(sql`
      update config_backups b set status = 'synchronizing', sync_started_at = ${now.toISOString()}::timestamptz,
        attempts = b.attempts + 1
      where b.id in (
        select c.id from config_backups c
        join devices d on d.sn = c.sn and d.project_id = c.project_id
        join device_state s on s.sn = c.sn
        where c.status = 'unsynchronized' and s.status in (${ONLINE_CODES})
        order by c.requested_at, c.id
        limit ${BATCH}
        for update of c skip locked
      )
      returning b.id, b.project_id as "projectId", b.sn, b.model, b.mac, b.firmware, b.type, b.attempts`);
    // Two rows of one device (a restore point and a general backup) go one after the other.
    const seen = new Set<string>();
    const first: Claimed[] = [];
    const later: number[] = [];
    for (const r of rows) {
      if (seen.has(r.sn)) later.push(r.id);
      else {
        seen.add(r.sn);
        first.push(r);
      }
    }
    if (later.length) {
      await this.d.database.db
        .update(configBackups)
        .set({ status: BackupSyncState.UNSYNCHRONIZED, attempts: sql`${configBackups.attempts} - 1` })
        .where(inArray(configBackups.id, later));
      this.again = true;
    }
    return first;
  }

  /** Each answer becomes the row's file (or its failure), all in one transaction. */
  private async store(claimed: Claimed[], outcomes: CommandOutcome[]): Promise<void> {
    const secrets = this.d.gateway.commands.secrets;
    const now = this.d.now();
    const results = await Promise.all(
      claimed.map(async (c, i) => {
        const outcome = outcomes[i];
        if (outcome.code !== 0) {
          const retry = BUSY.has(outcome.code) && c.attempts < ATTEMPTS;
          return { c, retry, code: outcome.code, message: outcome.message ?? errorMessage(outcome.code) };
        }
        const reply = getConfigReplySchema.safeParse(outcome.data);
        if (!reply.success) {
          return {
            c,
            retry: false,
            code: Codes.NO_CONFIG_FILE,
            message: 'The device answered without a configuration',
          };
        }
        const document = reply.data.document as Record<string, unknown>;
        if (reply.data.hash && reply.data.hash !== (await configHash(document))) {
          return {
            c,
            retry: false,
            code: Codes.SET_FAILED,
            message: 'The configuration does not match the device’s hash',
          };
        }
        const built = await buildBackupFile(
          secrets,
          {
            sn: c.sn,
            model: c.model,
            mac: c.mac,
            firmware: c.firmware,
            revision: reply.data.revision,
            takenAt: now,
          },
          document,
        );
        if (built.bytes.length > LIMITS.BACKUP_FILE_MAX_BYTES) {
          return {
            c,
            retry: false,
            code: Codes.FILE_TOO_LARGE,
            message: 'The configuration is too large to keep',
          };
        }
        return { c, built, revision: reply.data.revision };
      }),
    );
    await this.d.database.db.transaction(async (tx) => {
      const projects = new Set<number>();
      const audits: { projectId: number; id: number; sn: string; fileName: string }[] = [];
      for (const r of results) {
        const where = and(
          eq(configBackups.id, r.c.id),
          eq(configBackups.status, BackupSyncState.SYNCHRONIZING),
        );
        if ('built' in r && r.built) {
          if (r.c.type === BackupType.RESTORE_POINT) {
            // One restore point per device: the user's new one replaces the old (they confirmed it).
            const [still] = await tx.select({ id: configBackups.id }).from(configBackups).where(where);
            if (!still) continue;
            const gone = await tx
              .delete(configBackups)
              .where(
                and(
                  eq(configBackups.projectId, r.c.projectId),
                  eq(configBackups.sn, r.c.sn),
                  eq(configBackups.type, BackupType.RESTORE_POINT),
                  eq(configBackups.status, BackupSyncState.SYNCHRONIZED),
                ),
              )
              .returning({ id: configBackups.id, fileName: configBackups.fileName });
            for (const g of gone)
              audits.push({ projectId: r.c.projectId, id: g.id, sn: r.c.sn, fileName: g.fileName });
          }
          await tx
            .update(configBackups)
            .set({
              status: BackupSyncState.SYNCHRONIZED,
              code: null,
              message: null,
              revision: r.revision,
              configHash: r.built.configHash,
              size: r.built.bytes.length,
              checksum: r.built.checksum,
              content: r.built.bytes,
              takenAt: now,
            })
            .where(where);
          if (r.c.type === BackupType.GENERAL) projects.add(r.c.projectId);
        } else if ('retry' in r && r.retry) {
          await tx.update(configBackups).set({ status: BackupSyncState.UNSYNCHRONIZED }).where(where);
        } else if ('code' in r) {
          await tx
            .update(configBackups)
            .set({ status: BackupSyncState.FAILED, code: r.code ?? null, message: r.message ?? null })
            .where(where);
        }
      }
      for (const projectId of projects) {
        for (const g of await pruneGeneral(tx, projectId)) audits.push({ projectId, ...g });
      }
      await recordAuditsOf(tx, audits, now);
    });
  }
}

/** The system's audit rows of backups it overwrote (the oldest general, a replaced restore point). */
async function recordAuditsOf(
  tx: Tx,
  gone: { projectId: number; id: number; sn: string; fileName: string }[],
  now: Date,
): Promise<void> {
  if (gone.length === 0) return;
  await recordAudits(
    tx,
    SYSTEM_ACTOR,
    gone.map((g) => ({
      projectId: g.projectId,
      action: 'backup-overwrite',
      entity: 'config-backup',
      entityId: g.id,
      before: { sn: g.sn, fileName: g.fileName },
    })),
    now,
  );
}

const senders = new WeakMap<Gateway, BackupSync>();

/** The instance's sender (one per gateway, so per running server). */
export function backupSync(deps: SyncDeps): BackupSync {
  let sync = senders.get(deps.gateway);
  if (!sync) {
    sync = new BackupSync(deps);
    senders.set(deps.gateway, sync);
  }
  return sync;
}

const slotKey = (at: Date) => `${CONFIG_BACKUP_JOB}:${Math.floor(at.getTime() / INTERVAL_MS) + 1}`;
const slotTime = (at: Date) => new Date((Math.floor(at.getTime() / INTERVAL_MS) + 1) * INTERVAL_MS);

/**
 * Automatic backups due now, as rows (unsynchronized) with their audit rows: an online, cloud-managed
 * device of a WLAN project whose settings ask for it, that has no backup waiting and none requested in
 * the last 3 minutes, and either runs a configuration (reported hash) that its latest backup does not
 * hold (afterChange) or has had no backup for the project's interval (everyHours).
 */
export async function scheduleAutomatic(tx: Tx, now: Date): Promise<number> {
  const at = now.toISOString();
  const stamp = at.replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const { rows } = await tx.execute<{ id: number; projectId: number; sn: string; fileName: string }>(sql`
    insert into config_backups (project_id, sn, model, mac, firmware, type, trigger, status, file_name,
      requested_by, requested_at)
    select d.project_id, d.sn, d.model, d.mac, s.firmware, ${BackupType.GENERAL}, ${BackupTrigger.AUTO},
      ${BackupSyncState.UNSYNCHRONIZED}, d.sn || '_' || regexp_replace(d.model, '[^A-Za-z0-9._-]+', '_', 'g') || '_' || ${stamp} || '.json',
      'system', ${at}::timestamptz
    from backup_settings bs
    join projects p on p.id = bs.project_id and p.net_mode = ${NetMode.WLAN} and not p.is_demo
    join devices d on d.project_id = bs.project_id and d.management_mode = ${ManagementMode.CLOUD}
    join device_state s on s.sn = d.sn and s.status in (${ONLINE_CODES})
    where (bs.after_change or bs.every_hours > 0)
      and not exists (
        select 1 from config_backups b where b.project_id = d.project_id and b.sn = d.sn
          and (b.status in ('unsynchronized', 'synchronizing')
            or b.requested_at > ${at}::timestamptz - make_interval(mins => ${LIMITS.BACKUP_INTERVAL_MINUTES})))
      and (
        (bs.after_change and s.reported_revision > 0 and s.reported_hash is not null
          and s.reported_hash is distinct from (
            select b.config_hash from config_backups b
            where b.project_id = d.project_id and b.sn = d.sn and b.status = 'synchronized' and b.trigger <> 'upload'
            order by b.taken_at desc nulls last, b.id desc limit 1))
        or (bs.every_hours > 0 and coalesce((
            select max(b.requested_at) from config_backups b
            where b.project_id = d.project_id and b.sn = d.sn and b.status <> 'failed' and b.trigger <> 'upload'),
            '-infinity'::timestamptz) <= ${at}::timestamptz - make_interval(hours => bs.every_hours))
      )
    returning id, project_id as "projectId", sn, file_name as "fileName"`);
  if (rows.length) {
    await recordAudits(
      tx,
      SYSTEM_ACTOR,
      rows.map((r) => ({
        projectId: r.projectId,
        action: 'backup',
        entity: 'config-backup',
        entityId: r.id,
        after: { sn: r.sn, type: BackupType.GENERAL, trigger: BackupTrigger.AUTO, fileName: r.fileName },
      })),
      now,
    );
  }
  return rows.length;
}

export function registerBackupJobs(runner: JobRunner, deps: SyncDeps): void {
  runner.register(
    CONFIG_BACKUP_JOB,
    async ({ tx, now, afterCommit }) => {
      // Rows an instance left synchronizing (it stopped mid-way): tried again.
      await tx
        .update(configBackups)
        .set({ status: BackupSyncState.UNSYNCHRONIZED })
        .where(
          and(
            eq(configBackups.status, BackupSyncState.SYNCHRONIZING),
            lt(configBackups.syncStartedAt, new Date(now.getTime() - STALE_MS)),
          ),
        );
      // Rows whose device stayed away, or left the project, fail.
      await tx.execute(sql`
      update config_backups b set status = 'failed',
        code = case when d.sn is null then ${Codes.DEVICE_DELETED}::int else ${Codes.DEVICE_OFFLINE}::int end,
        message = case when d.sn is null then 'The device left the project' else 'The device stayed offline' end
      from config_backups c left join devices d on d.sn = c.sn and d.project_id = c.project_id
      where b.id = c.id and c.status = 'unsynchronized'
        and (d.sn is null or c.requested_at < ${new Date(now.getTime() - WAIT_MS).toISOString()}::timestamptz)`);
      await scheduleAutomatic(tx, now);
      afterCommit(() => backupSync(deps).kick());
      await addJobs(tx, [{ kind: CONFIG_BACKUP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
    },
    { deferWhileBusy: true },
  );
}

/** Starts the chain (every instance at start; the slot key keeps it one). */
export async function startBackupJobs(database: Database, now: Date): Promise<void> {
  await addJobs(database.db, [{ kind: CONFIG_BACKUP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
}
