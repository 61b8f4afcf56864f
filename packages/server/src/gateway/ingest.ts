import { isDeepStrictEqual } from 'node:util';
import {
  DeviceConfigState,
  type DeviceEvent,
  DeviceStatus,
  deviceEventSchema,
  type Hello,
  helloSchema,
  isLastWill,
  isOfflineStatus,
  modelInfo,
  parseDeviceTopic,
  type Reply,
  replySchema,
  type StateMessage,
  stateMessageSchema,
  type Telemetry,
  telemetrySchema,
  type UpKind,
} from '@beacon/protocol';
import { asc, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../db/client.ts';
import { deviceEvents, devices } from '../db/schema.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';
import { isAwayStatus, scheduleAwayChecks } from './away-watchdog.ts';
import { Batcher, updateRows } from './batch.ts';

/**
 * Turns what devices publish into rows (DESIGN.md data path: "reported state in PostgreSQL → event
 * to browsers"). Every message is validated with the protocol schemas first; an invalid one is
 * logged and dropped. Messages of one device are handled one after another, in arrival order.
 */

export type DeviceRow = typeof devices.$inferSelect;

const SCHEMAS: Record<Exclude<UpKind, 'reply'>, z.ZodType> = {
  hello: helloSchema,
  state: stateMessageSchema,
  telemetry: telemetrySchema,
  event: deviceEventSchema,
};

export interface IngestHooks {
  /** A command reply (commands.ts records its outcome). */
  onReply(sn: string, reply: Reply): Promise<void>;
  /** After a hello: the device's row as stored (commands.ts re-sends a configuration that differs). */
  afterHello(row: DeviceRow): Promise<void>;
  /** After a state message (commands.ts re-sends a pending configuration to an idle device that runs another revision). */
  afterState?(row: DeviceRow): Promise<void>;
}

/** Invariant 3: the configuration status from the desired and reported revisions. */
export function configStatusOf(
  desired: number,
  reported: number,
  current: { status: string; code: number | null },
  failed?: { revision?: number; code?: number },
  hashes?: { desired: string | null; reported: string | null | undefined },
): { configStatus: DeviceConfigState; configCode: number | null } {
  // The desired revision with other content (drift) is not applied: the server sends it again.
  const drift = Boolean(hashes?.desired && hashes.reported && hashes.desired !== hashes.reported);
  if (desired === 0 || (reported === desired && !drift)) {
    return { configStatus: DeviceConfigState.APPLIED, configCode: null };
  }
  if (failed?.revision === desired)
    return { configStatus: DeviceConfigState.FAILED, configCode: failed.code ?? null };
  if (current.status === DeviceConfigState.FAILED) {
    return { configStatus: DeviceConfigState.FAILED, configCode: current.code };
  }
  return { configStatus: DeviceConfigState.PENDING, configCode: null };
}

/** The columns a hello writes (the reported identity, and status/config when they change). */
const HELLO_COLUMNS = [
  'model',
  'type',
  'mac',
  'firmware',
  'hardware',
  'ip',
  'capabilities',
  'managementMode',
  'deviceMode',
  'meshRole',
  'cpeMode',
  'bootId',
  'uptime',
  'reportedRevision',
  'lastSeenAt',
  'updatedAt',
  'portCount',
  'firstSeenAt',
  'status',
  'operation',
  'progress',
  'configStatus',
  'configCode',
] as const satisfies readonly (keyof DeviceRow)[];

const STATE_COLUMNS = [
  'status',
  'operation',
  'progress',
  'managementMode',
  'reportedRevision',
  'remote',
  'configStatus',
  'configCode',
  'reportedHash',
  'configRetryAt',
  'lastSeenAt',
  'updatedAt',
] as const satisfies readonly (keyof DeviceRow)[];

const TELEMETRY_COLUMNS = [
  'clientCount',
  'dhcpClientCount',
  'ports',
  'portCount',
  'poeTotal',
  'poeUsed',
  'poeRemaining',
  'cpu',
  'memory',
  'uptime',
  'uplinkSn',
  'uplinkPort',
  'meshRole',
  'telemetry',
  'telemetryAt',
  'lastSeenAt',
  'updatedAt',
] as const satisfies readonly (keyof DeviceRow)[];

interface Item<M> {
  sn: string;
  message: M;
  now: Date;
}

export class Ingest {
  private readonly chains = new Map<string, Promise<void>>();
  /**
   * Hello, state and telemetry of many devices are written together (batch.ts): with 10,000 devices
   * connecting, one transaction per message cost ~10 statements per device. A device's messages
   * still go one after another (the chains above), so a batch holds at most one of each device.
   */
  private readonly hellos = new Batcher<Item<Hello>, DeviceRow>((items) => this.writeHellos(items));
  private readonly states = new Batcher<Item<StateMessage>, DeviceRow | null>((items) =>
    this.writeStates(items),
  );
  private readonly telemetries = new Batcher<Item<Telemetry>, null>((items) => this.writeTelemetry(items));

  constructor(
    private readonly database: Database,
    private readonly hooks: IngestHooks,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>,
    private readonly now: () => Date,
    /** How long a device may be away for an upgrade or restart before it counts as offline (away-watchdog.ts). */
    private readonly awayDeadlineMs = 900_000,
  ) {}

  /** Entry point for every MQTT message the server receives. */
  accept(topic: string, payload: Buffer): void {
    const parsed = parseDeviceTopic(topic);
    if (parsed?.direction !== 'up') return;
    const { sn, kind } = parsed;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn({ sn, kind }, 'mqtt: message is not JSON; dropped');
      return;
    }
    const schema = kind === 'reply' ? replySchema : SCHEMAS[kind];
    const result = schema.safeParse(json);
    if (!result.success) {
      this.log.warn({ sn, kind, issues: result.error.issues.slice(0, 3) }, 'mqtt: invalid message; dropped');
      return;
    }
    if (kind === 'hello' && (result.data as Hello).sn !== sn) {
      this.log.warn({ sn }, 'mqtt: hello names another serial number; dropped');
      return;
    }
    const previous = this.chains.get(sn) ?? Promise.resolve();
    const next = previous
      .then(() => this.handle(sn, kind, result.data))
      .catch((err) => this.log.error({ err, sn, kind }, 'mqtt: message handling failed'));
    this.chains.set(sn, next);
    void next.then(() => {
      if (this.chains.get(sn) === next) this.chains.delete(sn);
    });
  }

  /** Resolves when every message received so far is handled. */
  async drain(): Promise<void> {
    while (this.chains.size) await Promise.all([...this.chains.values()]);
  }

  private async handle(sn: string, kind: UpKind, data: unknown): Promise<void> {
    switch (kind) {
      case 'hello':
        return this.hello(sn, data as Hello);
      case 'state':
        return this.state(sn, data as StateMessage);
      case 'telemetry':
        return this.telemetry(sn, data as Telemetry);
      case 'event':
        return this.event(sn, data as DeviceEvent);
      case 'reply':
        return this.hooks.onReply(sn, data as Reply);
    }
  }

  private async hello(sn: string, h: Hello): Promise<void> {
    const row = await this.hellos.add({ sn, message: h, now: this.now() });
    await this.hooks.afterHello(row);
  }

  private async state(sn: string, s: StateMessage): Promise<void> {
    const row = await this.states.add({ sn, message: s, now: this.now() });
    if (row) await this.hooks.afterState?.(row);
  }

  private async telemetry(sn: string, t: Telemetry): Promise<void> {
    await this.telemetries.add({ sn, message: t, now: this.now() });
  }

  /**
   * Hellos of many devices in one transaction: the rows locked in SN order, a row inserted for a
   * device never seen, one multi-row UPDATE, the status events in one statement.
   */
  private async writeHellos(items: Item<Hello>[]): Promise<DeviceRow[]> {
    return this.database.db.transaction(async (tx) => {
      const locked = await lockDevices(
        tx,
        items.map((i) => i.sn),
      );
      const unknown = items.filter((i) => !locked.has(i.sn));
      if (unknown.length) {
        await tx
          .insert(devices)
          .values(
            unknown.map(({ sn, message: h, now }) => ({
              sn,
              ...reportedOf(h, now),
              portCount: modelInfo(h.model)?.ports.length ?? 0,
              status: DeviceStatus.ONLINE,
              firstSeenAt: now,
              createdAt: now,
            })),
          )
          .onConflictDoNothing();
        for (const [sn, row] of await lockDevices(
          tx,
          unknown.map((i) => i.sn),
        ))
          locked.set(sn, row);
      }
      const events: BusEvent[] = [];
      const rows = items.map(({ sn, message: h, now }) => {
        const current = locked.get(sn)!;
        const info = modelInfo(h.model);
        // Back from offline, or from writing its flash (it leaves cleanly at status 3, SPEC.md §9):
        // online until its state says more. Left at 3, its commands would be refused as upgrading
        // (commands.ts immediateCode), the configuration re-sent after this hello among them.
        const back = isOfflineStatus(current.status) || current.status === DeviceStatus.UPGRADING;
        const config = configStatusOf(current.desiredRevision, h.revision, {
          status: current.configStatus,
          code: current.configCode,
        });
        const row: DeviceRow = {
          ...current,
          ...reportedOf(h, now),
          portCount: current.portCount || (info?.ports.length ?? 0),
          firstSeenAt: current.firstSeenAt ?? now,
          ...(back ? { status: DeviceStatus.ONLINE, operation: null, progress: null } : {}),
          ...config,
        };
        if (back) pushStatusEvent(events, row, current.status, now);
        return row;
      });
      await updateRows(tx, devices, 'sn', HELLO_COLUMNS, rows);
      await publishEvents(tx, events);
      return rows;
    });
  }

  /**
   * States of many devices in one transaction. A state that changes nothing (the usual first state
   * after a hello, or a repeat) writes nothing: last_seen_at then moves with the next telemetry.
   */
  private async writeStates(items: Item<StateMessage>[]): Promise<(DeviceRow | null)[]> {
    return this.database.db.transaction(async (tx) => {
      const locked = await lockDevices(
        tx,
        items.map((i) => i.sn),
      );
      const events: BusEvent[] = [];
      const writes: DeviceRow[] = [];
      const away: string[] = [];
      const results = items.map(({ sn, message: s, now }): DeviceRow | null => {
        const current = locked.get(sn);
        // A state (or a retained last will) of a device that never said hello: wait for its hello.
        if (!current) return null;
        if (isLastWill(s)) {
          if (isOfflineStatus(current.status)) return null;
          const row: DeviceRow = {
            ...current,
            status: DeviceStatus.OFFLINE,
            operation: null,
            progress: null,
            updatedAt: now,
          };
          writes.push(row);
          pushStatusEvent(events, row, current.status, now);
          return row;
        }
        const config = configStatusOf(
          current.desiredRevision,
          s.revision,
          { status: current.configStatus, code: current.configCode },
          s.configStatus === 'failed' ? { revision: s.failedRevision, code: s.configCode } : undefined,
          { desired: current.desiredHash, reported: s.configHash },
        );
        const row: DeviceRow = {
          ...current,
          status: s.status,
          operation: s.operation,
          progress: s.progress ?? null,
          managementMode: s.mode,
          reportedRevision: s.revision,
          // Kept when a device does not report one (older firmware): no drift is seen then.
          reportedHash: s.configHash ?? current.reportedHash,
          remote: s.remote ?? null,
          ...config,
          // Newly pending (drift seen): due for the convergence job now; applied: nothing due.
          configRetryAt:
            config.configStatus === DeviceConfigState.PENDING
              ? (current.configRetryAt ?? now)
              : config.configStatus === DeviceConfigState.APPLIED
                ? null
                : current.configRetryAt,
          // A clean power-off reports status 0 itself; anything else is a sign of life.
          ...(isOfflineStatus(s.status) ? {} : { lastSeenAt: now }),
          updatedAt: now,
        };
        const changed =
          current.status !== row.status ||
          current.operation !== row.operation ||
          current.progress !== row.progress ||
          current.configStatus !== row.configStatus;
        const same =
          !changed &&
          current.managementMode === row.managementMode &&
          current.reportedRevision === row.reportedRevision &&
          current.reportedHash === row.reportedHash &&
          current.configRetryAt?.getTime() === row.configRetryAt?.getTime() &&
          current.configCode === row.configCode &&
          isDeepStrictEqual(current.remote, row.remote);
        if (same) return current;
        writes.push(row);
        if (changed) pushStatusEvent(events, row, current.status, now);
        if (isAwayStatus(row.status) && row.status !== current.status) away.push(sn);
        return row;
      });
      await updateRows(tx, devices, 'sn', STATE_COLUMNS, writes);
      await scheduleAwayChecks(tx, away, new Date(this.now().getTime() + this.awayDeadlineMs));
      await publishEvents(tx, events);
      return results;
    });
  }

  /** Telemetry of many devices: one multi-row UPDATE (rows locked in SN order first). */
  private async writeTelemetry(items: Item<Telemetry>[]): Promise<null[]> {
    const rows = items.map(({ sn, message: t, now }) => {
      const ports = t.ports?.map((p) => ({
        id: p.id,
        type: p.type,
        enabled: p.enabled,
        link: p.link,
        speed: p.speed,
        duplex: p.duplex,
        poe: p.poe,
        neighbour: p.neighbour ?? null,
      }));
      return {
        sn,
        clientCount: t.clientCount,
        dhcpClientCount: t.dhcpClientCount ?? 0,
        // Absent (null here) = keep the stored value (updateRows' `keep`).
        ports: ports ?? null,
        portCount: ports ? ports.length : null,
        poeTotal: t.poe?.budget ?? null,
        poeUsed: t.poe?.used ?? null,
        poeRemaining: t.poe?.remaining ?? null,
        cpu: t.cpu,
        memory: t.memory,
        uptime: t.uptime,
        uplinkSn: t.uplink?.sn ?? null,
        uplinkPort: t.uplink?.port ?? null,
        meshRole: t.mesh?.role ?? null,
        telemetry: t,
        telemetryAt: now,
        lastSeenAt: now,
        updatedAt: now,
      };
    });
    await this.database.db.transaction(async (tx) => {
      await lockDevices(
        tx,
        rows.map((r) => r.sn),
        false,
      );
      await updateRows(tx, devices, 'sn', TELEMETRY_COLUMNS, rows as Partial<DeviceRow>[], {
        keep: ['ports', 'portCount', 'meshRole'],
      });
    });
    return items.map(() => null);
  }

  private async event(sn: string, e: DeviceEvent): Promise<void> {
    await this.database.db
      .insert(deviceEvents)
      .values({
        sn,
        projectId: sql`(select ${devices.projectId} from ${devices} where ${devices.sn} = ${sn})`,
        eventId: e.id,
        at: new Date(e.ts),
        event: e.event,
        level: e.level,
        message: e.message,
        data: e.data ?? null,
        receivedAt: this.now(),
      })
      .onConflictDoNothing();
  }
}

/** What a hello reports, as device columns. */
function reportedOf(h: Hello, now: Date) {
  return {
    model: h.model,
    type: h.type,
    mac: h.mac.toUpperCase(),
    firmware: h.firmware,
    hardware: h.hardware ?? null,
    ip: h.ip,
    capabilities: h.capabilities,
    managementMode: h.mode,
    deviceMode: h.deviceMode ?? null,
    meshRole: h.meshRole ?? null,
    cpeMode: h.cpeMode ?? null,
    bootId: h.bootId,
    uptime: h.uptime,
    reportedRevision: h.revision,
    lastSeenAt: now,
    updatedAt: now,
  };
}

/**
 * Locks the devices' rows in SN order (so that batches and single writers cannot deadlock) and
 * answers them by SN; `full = false` locks without reading the rows back.
 */
async function lockDevices(db: DbOrTx, sns: string[], full = true): Promise<Map<string, DeviceRow>> {
  const map = new Map<string, DeviceRow>();
  if (sns.length === 0) return map;
  if (!full) {
    await db
      .select({ sn: devices.sn })
      .from(devices)
      .where(inArray(devices.sn, sns))
      .orderBy(asc(devices.sn))
      .for('update');
    return map;
  }
  const rows = await db
    .select()
    .from(devices)
    .where(inArray(devices.sn, sns))
    .orderBy(asc(devices.sn))
    .for('update');
  for (const row of rows) map.set(row.sn, row);
  return map;
}

/** Adds the device.status live event of `row` (none for unclaimed devices). */
function pushStatusEvent(events: BusEvent[], row: DeviceRow, previous: number | null, at: Date): void {
  const event = statusEventOf(row, previous, at);
  if (event) events.push(event);
}

/** A device.status live event for the device's project (null for unclaimed devices). */
export function statusEventOf(row: DeviceRow, previous: number | null, at: Date): BusEvent | null {
  if (row.projectId === null) return null;
  return {
    type: 'device.status',
    projectId: row.projectId,
    sn: row.sn,
    status: row.status,
    previous,
    operation: row.operation,
    progress: row.progress,
    configStatus: row.configStatus,
    at: at.toISOString(),
  };
}

/** A device.status live event for the device's project (none for unclaimed devices). */
export async function statusEvent(
  db: DbOrTx,
  row: DeviceRow,
  previous: number | null,
  at: Date,
): Promise<void> {
  const event = statusEventOf(row, previous, at);
  if (event) await publishEvents(db, [event]);
}
