import { isDeepStrictEqual } from 'node:util';
import {
  DEVICE_LIMITS,
  DeviceConfigState,
  type DeviceEvent,
  DeviceStatus,
  decodeDeviceJson,
  deviceEventSchema,
  type Hello,
  helloSchema,
  isLastWill,
  isOfflineStatus,
  ManagementMode,
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
import { asc, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { dropClientsOf, ensureClientPartitions, syncOnlineClients } from '../clients/ingest.ts';
import type { Database, DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';
import {
  type DeviceEventItem,
  type DeviceEventListener,
  publishDeviceEventsLive,
  writeDeviceEvents,
} from '../logs/device-events.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { lockPrevious, StatsWriter, sampleBatch } from '../stats/ingest.ts';
import { storeLinks } from '../topology/ingest.ts';
import { isAwayStatus, scheduleAwayChecks } from './away-watchdog.ts';
import { Batcher, updateRows } from './batch.ts';
import { dbFailure, isTransientDbError } from './db-retry.ts';
import { type DeviceChange, settleFinalOutcomes } from './outcomes.ts';

/**
 * Turns what devices publish into rows (DESIGN.md data path: "reported state in PostgreSQL → event
 * to browsers"). Every message is validated with the protocol schemas first; an invalid one is
 * logged and dropped. Messages of one device are handled one after another, in arrival order;
 * its telemetry is coalesced and rate-limited (Lane below).
 */

export type { DeviceRow };

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
  /**
   * Devices of a project whose hello or state says they are back from local to cloud management,
   * in the transaction that stores it (network/service.ts compiles the project's network for them):
   * answers the SNs to push once it has committed (`push`).
   */
  onCloudManaged?(tx: DbOrTx, projectId: number, sns: string[], now: Date): Promise<string[]>;
  /** Sends a device its pending configuration (commands.ts converge). */
  push?(sn: string): void;
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

/**
 * What each message writes. Device traffic writes `device_state` (docs/decisions/0031); the
 * inventory row is written only when one of its own columns changes (a device's first hello, a new
 * management mode, a configuration status transition), never for telemetry.
 */
const HELLO_STATE_COLUMNS = [
  'firmware',
  'hardware',
  'ip',
  'deviceMode',
  'meshRole',
  'cpeMode',
  'bootId',
  'connectedAt',
  'uptime',
  'helloUptime',
  'reportedRevision',
  'lastSeenAt',
  'portCount',
  'status',
  'operation',
  'progress',
  'stateTs',
  'telemetryTs',
] as const satisfies readonly (keyof DeviceRow)[];

const HELLO_INVENTORY_COLUMNS = [
  'model',
  'type',
  'mac',
  'capabilities',
  'managementMode',
  'firstSeenAt',
  'configStatus',
  'configCode',
] as const satisfies readonly (keyof DeviceRow)[];

const STATE_STATE_COLUMNS = [
  'status',
  'operation',
  'progress',
  'reportedRevision',
  'remote',
  'reportedHash',
  'lastSeenAt',
  'stateTs',
] as const satisfies readonly (keyof DeviceRow)[];

const STATE_INVENTORY_COLUMNS = [
  'managementMode',
  'configStatus',
  'configCode',
  'configRetryAt',
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
  'telemetryTs',
  'lastSeenAt',
] as const satisfies readonly (keyof DeviceRow)[];

/**
 * A state or telemetry stamped `ts` (device clock) is stale when the newest of its kind written in
 * the device's current connection (`stored`, reset by its hello) is later, but by no more than
 * STALE_WINDOW_MS: with two server instances splitting a device's traffic (shared subscription), a
 * message may be handled after a newer one (docs/decisions/0065). Older by more than the window,
 * it is taken as the device's clock set back (NTP) and accepted, so that no clock freezes a device.
 */
export function isStale(ts: number, stored: number | null): boolean {
  return stored !== null && ts < stored && stored - ts <= DEVICE_LIMITS.STALE_WINDOW_MS;
}

/**
 * A hello of an earlier connection of the device's current boot, handled after a later one's: a
 * JetStream consumer redelivers what an instance took and did not acknowledge (the instance died,
 * or the consumer's leader moved) after the device has reconnected. Written, it would take
 * `connectedAt` back to that connection, and its last will, redelivered after it, would then mark
 * a connected device offline. Such a hello is older by both of its clocks: no more uptime than the
 * last hello taken, and an earlier connection time. Either alone would wedge a device that misses
 * one of them: a clock set back (NTP) within a boot has a higher uptime, and a firmware that keeps
 * its `bootId` across a reboot has a lower uptime with a later connection time; both are taken.
 * Across boots nothing orders hellos, and a hello of another boot is always taken. The uptime of the
 * last hello taken, not the row's `uptime`: telemetry moves that one and may be written before its
 * own connection's hello.
 */
export function isStaleHello(h: Hello, current: DeviceRow): boolean {
  if (h.bootId !== current.bootId || h.connectedAt === undefined) return false;
  if (current.connectedAt === null || current.helloUptime === null) return false;
  return h.uptime <= current.helloUptime && h.connectedAt < current.connectedAt.getTime();
}

/** The rows whose inventory columns differ from what is stored (they alone rewrite `devices`). */
function inventoryChanged(
  pairs: { before: DeviceRow; after: DeviceRow }[],
  columns: readonly (keyof DeviceRow)[],
): DeviceRow[] {
  return pairs
    .filter(({ before, after }) => columns.some((c) => !isDeepStrictEqual(before[c], after[c])))
    .map(({ after }) => after);
}

interface Item<M> {
  sn: string;
  message: M;
  now: Date;
}

type ControlKind = Exclude<UpKind, 'telemetry'>;

/**
 * What became of one received message, for a broker that redelivers what is not acknowledged
 * (NATS JetStream, docs/decisions/0067): `handled` (written, or replaced by a newer telemetry of
 * the device that is written instead) and `dropped` (refused for good: invalid, too large, over the
 * device's rate) are acknowledged; `later` (the database was away when the instance shut down, or
 * the device's queue is full) is handed back to the broker for another try.
 */
export type MessageOutcome = 'handled' | 'dropped' | 'later';
export type MessageDone = (outcome: MessageOutcome) => void;

/**
 * What one device has waiting. Its hello, state, event and reply messages (`queue`) are handled
 * one after another in arrival order. Telemetry is live data and is not queued: the newest one not
 * yet written replaces the one before (`telemetry`, still raw, so a flood costs no parsing), and it
 * is written only while the queue is empty and at most once per TELEMETRY_MIN_INTERVAL_MS. A reply
 * therefore never waits behind telemetry, however much of it a device sends (issue 7: 15,000
 * messages of one device took five minutes and its commands timed out meanwhile). Its other
 * messages, replies excepted, are limited by a token bucket.
 */
interface Lane {
  queue: { kind: ControlKind; data: unknown; done?: MessageDone }[];
  running: boolean;
  telemetry: Buffer | null;
  /** Who waits for the outcome of `telemetry` (a broker that acknowledges on completion). */
  telemetryDone: MessageDone | undefined;
  telemetryBusy: boolean;
  /** Real time (ms) the last telemetry write of this device started. */
  telemetryAt: number;
  /** Either the end of the telemetry window (`waiting`) or the moment an idle lane may be forgotten. */
  timer: NodeJS.Timeout | null;
  /** The timer waits for the telemetry window (not only for the lane's release). */
  waiting: boolean;
  /** Token bucket of the device's hello, state and event messages (MESSAGES_PER_SECOND, MESSAGE_BURST). */
  tokens: number;
  refilledAt: number;
}

/** What the ingest holds and has done, for tests and benchmarks. */
export interface IngestStats {
  /** Devices with something waiting or in progress. */
  devices: number;
  /** Messages waiting for a database that is unavailable (they are written when it is back). */
  retrying: number;
  /** Telemetry replaced by a newer one of the same device before it was written. */
  coalesced: number;
  /** Messages refused (invalid, too large, over a device's queue) or given up (a failure of their own). */
  dropped: number;
  /** Hellos, states and telemetry ignored as older than one of their kind already written (isStaleHello, isStale). */
  stale: number;
  /** Messages received and not yet written: in the intake, or in a batch waiting for or in its write. */
  waiting: number;
}

interface Intake {
  sn: string;
  kind: UpKind;
  payload: Buffer;
  done?: MessageDone;
}
const EMPTY_INTAKE: Intake = { sn: '', kind: 'telemetry', payload: Buffer.alloc(0) };
/** How long the intake looks at messages before the event loop may serve others (slice). */
const INTAKE_SLICE_MS = 8;
/** Messages waiting (intake and batches) from which the ingest counts as busy (busy()): two full batches. */
const BUSY_BACKLOG = 1000;

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2000;

export class Ingest {
  private readonly lanes = new Map<string, Lane>();
  /** Received, not yet looked at (accept, slice): the queue and where its unread part starts. */
  private intake: Intake[] = [];
  private intakeHead = 0;
  /**
   * What each device has in the intake, so that while the event loop is busy (a storm) one device
   * cannot fill the server's memory with raw messages before its limits are looked at: at most one
   * telemetry (a newer one replaces its payload there, as its lane would), and at most
   * QUEUED_PER_DEVICE others (past it the device is flooding and its next ones are dropped).
   */
  private readonly intakeBySn = new Map<string, number>();
  private readonly intakeTelemetry = new Map<string, Intake>();
  private slicing = false;
  /** Every handling under way: drain() waits for them. */
  private readonly work = new Set<Promise<void>>();
  /** drain() in progress: pending telemetry is written at once, not at the end of its window. */
  private draining = 0;
  /** Shutting down: a message the database refuses is no longer kept for a retry. */
  private closing = false;
  private readonly counts = { retrying: 0, coalesced: 0, dropped: 0, stale: 0 };
  /** When a message kept for a retry was last logged. */
  private retryLoggedAt = 0;
  /** Messages written after a retry since that was last logged, and when. */
  private retried: {
    written: number;
    loggedAt: number;
    last?: { sn: string; kind: UpKind; attempt: number };
    timer?: NodeJS.Timeout;
  } = { written: 0, loggedAt: 0 };
  /** When a drop of each device was last logged (mayLog). */
  private readonly loggedAt = new Map<string, number>();
  /**
   * Hello, state and telemetry of many devices are written together (batch.ts): with 10,000 devices
   * connecting, one transaction per message cost ~10 statements per device. A device's messages
   * still go one after another (its lane), so a batch holds at most one of each device.
   */
  private readonly hellos = new Batcher<Item<Hello>, DeviceRow | null>((items) =>
    this.writeHellos(this.counted('hello', items)),
  );
  private readonly states = new Batcher<Item<StateMessage>, DeviceRow | null>((items) =>
    this.writeStates(this.counted('state', items)),
  );
  private readonly telemetries = new Batcher<Item<Telemetry>, null>((items) =>
    this.writeTelemetry(this.counted('telemetry', items)),
  );
  private readonly events = new Batcher<DeviceEventItem, null>((items) =>
    writeDeviceEvents(this.database, this.counted('event', items), this.onDeviceEvents),
  );
  private readonly batchers: readonly { waiting: number; writing: number }[] = [
    this.hellos,
    this.states,
    this.telemetries,
    this.events,
  ];
  /**
   * Called after each batch of device events is stored, with the new rows, inside its transaction
   * (src/logs/device-events.ts). The live `device.event` is the first; other features push theirs.
   */
  readonly onDeviceEvents: DeviceEventListener[] = [publishDeviceEventsLive];
  private readonly statsWriter: StatsWriter;

  constructor(
    private readonly database: Database,
    private readonly hooks: IngestHooks,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>,
    private readonly now: () => Date,
    /** How long a device may be away for an upgrade or restart before it counts as offline (away-watchdog.ts). */
    private readonly awayDeadlineMs = 900_000,
    /** Messages in, batch sizes and lag (src/metrics/): one bound counter or histogram step each. */
    private readonly metrics?: Metrics,
  ) {
    this.statsWriter = new StatsWriter(database);
  }

  /**
   * The devices of `changes` that left local management mode (SPEC.md §4: configurable again) get
   * their project's network compiled in the same transaction; answers the SNs to push after it.
   */
  private async backToCloud(tx: DbOrTx, changes: readonly DeviceChange[], now: Date): Promise<string[]> {
    if (!this.hooks.onCloudManaged) return [];
    const byProject = new Map<number, string[]>();
    for (const { before, after } of changes) {
      if (
        after.projectId !== null &&
        before.managementMode === ManagementMode.LOCAL &&
        after.managementMode === ManagementMode.CLOUD
      ) {
        byProject.set(after.projectId, [...(byProject.get(after.projectId) ?? []), after.sn]);
      }
    }
    const pushed: string[] = [];
    for (const [projectId, sns] of byProject) {
      pushed.push(...(await this.hooks.onCloudManaged(tx, projectId, sns, now)));
    }
    return pushed;
  }

  /**
   * Entry point for every MQTT message the server receives. The server's MQTT client acknowledges a
   * QoS 1 message when this returns (mqtt.js handles the next packet only after that), so a message
   * is kept here until it is written: one the database cannot take now is retried until it can
   * (docs/decisions/0016-device-messages-kept-until-written.md). `done`, when given, hears what
   * became of the message once it is final (NATS acknowledges then: docs/decisions/0067).
   */
  accept(topic: string, payload: Buffer, done?: MessageDone): void {
    const parsed = parseDeviceTopic(topic);
    if (parsed?.direction !== 'up') {
      done?.('dropped');
      return;
    }
    const { sn, kind } = parsed;
    // An oversized message, or one of a device flooding the intake, is refused at once, never held.
    if (payload.length > DEVICE_LIMITS.MQTT_PACKET_BYTES) {
      this.metrics?.received(kind);
      this.drop(sn, kind, 'too large');
      done?.('dropped');
      return;
    }
    if (kind === 'telemetry') {
      const waiting = this.intakeTelemetry.get(sn);
      if (waiting) {
        this.metrics?.received(kind);
        this.counts.coalesced++;
        waiting.done?.('handled');
        waiting.payload = payload;
        waiting.done = done;
        return;
      }
      const entry: Intake = { sn, kind, payload, done };
      this.intakeTelemetry.set(sn, entry);
      this.intake.push(entry);
    } else {
      const waiting = this.intakeBySn.get(sn) ?? 0;
      if (waiting >= DEVICE_LIMITS.QUEUED_PER_DEVICE) {
        this.metrics?.received(kind);
        this.drop(sn, kind, 'too many waiting to be looked at');
        done?.('dropped');
        return;
      }
      this.intakeBySn.set(sn, waiting + 1);
      this.intake.push({ sn, kind, payload, done });
    }
    if (this.slicing) return;
    this.slicing = true;
    // Not looked at now: the link hands over a whole read of its socket in one go (mqtt.js handles
    // its packets one process.nextTick after another, which nothing else can come between), so the
    // first slice starts once that read is queued.
    this.track(new Promise<void>((resolve) => setImmediate(() => this.slice(resolve))));
  }

  /**
   * Looks at received messages for at most INTAKE_SLICE_MS, then lets the event loop turn before
   * the next slice (setImmediate). In a reconnect storm the broker hands over messages far faster
   * than they are written; looking at each as it arrived kept the loop busy for 300-600 ms at a
   * time, and every API call waited that long for each of its database answers. Order is kept (one
   * queue), nothing is acknowledged differently (the link acknowledges on receipt, as before).
   */
  private slice(resolve: () => void): void {
    const until = performance.now() + INTAKE_SLICE_MS;
    while (this.intakeHead < this.intake.length) {
      const entry = this.intake[this.intakeHead];
      const { sn, kind, payload, done } = entry;
      this.intake[this.intakeHead++] = EMPTY_INTAKE;
      if (kind === 'telemetry') {
        if (this.intakeTelemetry.get(sn) === entry) this.intakeTelemetry.delete(sn);
      } else {
        const left = (this.intakeBySn.get(sn) ?? 1) - 1;
        if (left > 0) this.intakeBySn.set(sn, left);
        else this.intakeBySn.delete(sn);
      }
      try {
        this.look(sn, kind, payload, done);
      } catch (err) {
        this.log.error({ err, sn, kind }, 'mqtt: message not handled');
        done?.('dropped');
      }
      if (performance.now() >= until) break;
    }
    if (this.intakeHead < this.intake.length) {
      setImmediate(() => this.slice(resolve));
      return;
    }
    this.intake = [];
    this.intakeHead = 0;
    this.slicing = false;
    resolve();
  }

  private look(sn: string, kind: UpKind, payload: Buffer, done?: MessageDone): void {
    this.metrics?.received(kind);
    if (kind === 'telemetry') {
      const lane = this.lane(sn);
      if (lane.telemetry) {
        this.counts.coalesced++;
        // Replaced by a newer one, which is written instead.
        lane.telemetryDone?.('handled');
      }
      lane.telemetry = payload;
      lane.telemetryDone = done;
      this.pumpTelemetry(sn, lane);
      return;
    }
    // The limits first: a flood over them costs no parsing.
    const lane = this.lane(sn);
    if (lane.queue.length >= DEVICE_LIMITS.QUEUED_PER_DEVICE) {
      this.drop(sn, kind, 'queue full');
      // A broker that keeps it offers it again later (the queue fills while the database is away).
      done?.('later');
      this.release(sn, lane);
      return;
    }
    if (kind !== 'reply' && !this.take(lane)) {
      this.drop(sn, kind, 'over its message rate');
      done?.('dropped');
      this.release(sn, lane);
      return;
    }
    const data = this.validate(sn, kind, payload);
    if (data === undefined) {
      done?.('dropped');
      this.release(sn, lane);
      return;
    }
    lane.queue.push({ kind, data, done });
    if (!lane.running) this.track(this.runQueue(sn, lane));
  }

  /** Resolves when every message received so far is handled (pending telemetry is written now). */
  async drain(): Promise<void> {
    this.draining++;
    try {
      for (;;) {
        for (const [sn, lane] of this.lanes) {
          if (lane.timer && lane.telemetry) {
            clearTimeout(lane.timer);
            lane.timer = null;
            lane.waiting = false;
            this.pumpTelemetry(sn, lane);
          }
        }
        if (this.work.size === 0) return;
        await Promise.all([...this.work]);
      }
    } finally {
      this.draining--;
    }
  }

  /** Shutdown: what was received is handled, but no longer retried while the database is away. */
  async close(): Promise<void> {
    this.closing = true;
    await this.drain();
    for (const lane of this.lanes.values()) if (lane.timer) clearTimeout(lane.timer);
    this.lanes.clear();
    if (this.retried.timer) this.logWrittenAfterRetry();
  }

  /** The batch's size observed (by kind) on its way to the database. */
  private counted<T>(kind: string, items: T[]): T[] {
    this.metrics?.batch(kind, items.length);
    return items;
  }

  /**
   * More received than the database is taking now: BUSY_BACKLOG messages or more wait to be looked
   * at or for a write (a reconnect storm). The job runner then lets housekeeping wait (runner.ts).
   */
  busy(): boolean {
    return this.waiting() >= BUSY_BACKLOG;
  }

  private waiting(): number {
    return this.intake.length - this.intakeHead + this.batchers.reduce((n, b) => n + b.waiting, 0);
  }

  stats(): IngestStats {
    const writing = this.batchers.reduce((n, b) => n + b.writing, 0);
    return { devices: this.lanes.size, ...this.counts, waiting: this.waiting() + writing };
  }

  /** The message's data when it is valid JSON within the limits and matches its schema; else undefined. */
  private validate(sn: string, kind: UpKind, payload: Buffer): unknown {
    const decoded = decodeDeviceJson(payload);
    if (!decoded.ok) return this.drop(sn, kind, decoded.reason);
    const schema = kind === 'reply' ? replySchema : SCHEMAS[kind];
    const result = schema.safeParse(decoded.value);
    if (!result.success) {
      this.counts.dropped++;
      if (this.mayLog(sn)) {
        this.log.warn(
          { sn, kind, issues: result.error.issues.slice(0, 3) },
          'mqtt: invalid message; dropped',
        );
      }
      return undefined;
    }
    if (kind === 'hello' && (result.data as Hello).sn !== sn) {
      return this.drop(sn, kind, 'hello names another serial number');
    }
    return result.data;
  }

  private drop(sn: string, kind: UpKind, reason: string): undefined {
    this.counts.dropped++;
    if (this.mayLog(sn)) this.log.warn({ sn, kind, reason }, 'mqtt: message dropped');
    return undefined;
  }

  /** At most one line a second per device about its dropped messages: a flood must not become one of log lines. */
  private mayLog(sn: string): boolean {
    const now = Date.now();
    if ((this.loggedAt.get(sn) ?? 0) > now - 1000) return false;
    if (this.loggedAt.size >= 10_000) this.loggedAt.clear();
    this.loggedAt.set(sn, now);
    return true;
  }

  private lane(sn: string): Lane {
    let lane = this.lanes.get(sn);
    if (!lane) {
      lane = {
        queue: [],
        running: false,
        telemetry: null,
        telemetryDone: undefined,
        telemetryBusy: false,
        telemetryAt: 0,
        timer: null,
        waiting: false,
        tokens: DEVICE_LIMITS.MESSAGE_BURST,
        refilledAt: Date.now(),
      };
      this.lanes.set(sn, lane);
    }
    return lane;
  }

  private track(p: Promise<void>): void {
    this.work.add(p);
    void p.finally(() => this.work.delete(p));
  }

  private async runQueue(sn: string, lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (lane.queue.length) {
        const { kind, data, done } = lane.queue[0];
        const outcome = await this.persist(sn, kind, () => this.handle(sn, kind, data));
        lane.queue.shift();
        done?.(outcome);
      }
    } finally {
      lane.running = false;
      this.pumpTelemetry(sn, lane);
    }
  }

  /** Writes the device's pending telemetry if its queue is idle and its window has passed. */
  private pumpTelemetry(sn: string, lane: Lane): void {
    if (lane.timer && !lane.waiting && lane.telemetry) {
      // Only the release of an idle lane was due: a new telemetry does not wait for it.
      clearTimeout(lane.timer);
      lane.timer = null;
    }
    if (lane.running || lane.telemetryBusy || lane.timer) return;
    if (!lane.telemetry) {
      this.release(sn, lane);
      return;
    }
    const wait = lane.telemetryAt + DEVICE_LIMITS.TELEMETRY_MIN_INTERVAL_MS - Date.now();
    if (wait > 0 && this.draining === 0) {
      lane.waiting = true;
      lane.timer = setTimeout(() => {
        lane.timer = null;
        lane.waiting = false;
        this.pumpTelemetry(sn, lane);
      }, wait);
      lane.timer.unref();
      return;
    }
    const payload = lane.telemetry;
    const done = lane.telemetryDone;
    lane.telemetry = null;
    lane.telemetryDone = undefined;
    lane.telemetryBusy = true;
    lane.telemetryAt = Date.now();
    this.track(
      (async () => {
        try {
          const t = this.validate(sn, 'telemetry', payload) as Telemetry | undefined;
          if (t === undefined) {
            done?.('dropped');
            return;
          }
          const now = this.now();
          // A newer telemetry replaces this one if the database is away for a while.
          const outcome = await this.persist(
            sn,
            'telemetry',
            async () => {
              await this.telemetries.add({ sn, message: t, now });
              this.metrics?.committed('telemetry', t.ts);
            },
            () => lane.telemetry !== null,
          );
          done?.(outcome);
        } finally {
          lane.telemetryBusy = false;
          this.pumpTelemetry(sn, lane);
        }
      })(),
    );
  }

  /** Takes one token of the device's message budget; false when it has none left. */
  private take(lane: Lane): boolean {
    const now = Date.now();
    const refill = ((now - lane.refilledAt) * DEVICE_LIMITS.MESSAGES_PER_SECOND) / 1000;
    lane.tokens = Math.min(DEVICE_LIMITS.MESSAGE_BURST, lane.tokens + refill);
    lane.refilledAt = now;
    if (lane.tokens < 1) return false;
    lane.tokens -= 1;
    return true;
  }

  /**
   * Forgets an idle device once its telemetry window has passed and its message budget is full
   * again (so that neither limit is reset by the device pausing between messages).
   */
  private release(sn: string, lane: Lane): void {
    if (lane.running || lane.queue.length || lane.telemetryBusy || lane.timer || lane.telemetry) return;
    const budgetFullAt =
      lane.refilledAt +
      ((DEVICE_LIMITS.MESSAGE_BURST - lane.tokens) * 1000) / DEVICE_LIMITS.MESSAGES_PER_SECOND;
    const wait =
      Math.max(lane.telemetryAt + DEVICE_LIMITS.TELEMETRY_MIN_INTERVAL_MS, budgetFullAt) - Date.now();
    if (wait > 0 && !this.closing) {
      lane.timer = setTimeout(() => {
        lane.timer = null;
        this.pumpTelemetry(sn, lane);
      }, wait);
      lane.timer.unref();
      return;
    }
    if (this.lanes.get(sn) === lane) this.lanes.delete(sn);
  }

  /**
   * Runs one message's handling until it is written. A failure of the database's (down, refusing
   * connections, a lock, a revoked privilege: db-retry.ts) keeps the message and tries again with
   * backoff, in the device's order; any other failure is the message's own and drops it.
   * Answers what became of it (`later`: the database was still away when the server shut down).
   */
  private async persist(
    sn: string,
    kind: UpKind,
    run: () => Promise<unknown>,
    superseded: () => boolean = () => false,
  ): Promise<MessageOutcome> {
    let delay = RETRY_MIN_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        if (attempt > 1) this.writtenAfterRetry(sn, kind, attempt);
        return 'handled';
      } catch (err) {
        const transient = isTransientDbError(err);
        if (transient && superseded()) {
          // A newer telemetry of the device is waiting: it is written instead.
          this.counts.coalesced++;
          return 'handled';
        }
        if (!transient || this.closing) {
          this.counts.dropped++;
          this.log.error({ err, sn, kind }, 'mqtt: message handling failed; dropped');
          return transient ? 'later' : 'dropped';
        }
        // One line a second at most: a database away with a fleet connected holds thousands.
        if (attempt === 1 && Date.now() - this.retryLoggedAt >= 1000) {
          this.retryLoggedAt = Date.now();
          this.log.warn(
            { sn, kind, err: dbFailure(err), retrying: this.counts.retrying + 1 },
            'mqtt: database unavailable; message kept for a retry',
          );
        }
        this.counts.retrying++;
        await new Promise((r) => setTimeout(r, delay));
        this.counts.retrying--;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  }

  /**
   * One line a second at most, with how many were written since the last (a batch is 500); what the
   * last second of a burst wrote is logged when that second ends.
   */
  private writtenAfterRetry(sn: string, kind: UpKind, attempt: number): void {
    this.retried.written++;
    this.retried.last = { sn, kind, attempt };
    const wait = 1000 - (Date.now() - this.retried.loggedAt);
    if (wait <= 0) this.logWrittenAfterRetry();
    else if (!this.retried.timer) {
      this.retried.timer = setTimeout(() => this.logWrittenAfterRetry(), wait);
      this.retried.timer.unref();
    }
  }

  private logWrittenAfterRetry(): void {
    clearTimeout(this.retried.timer);
    if (this.retried.written > 0) {
      this.log.warn(
        { ...this.retried.last, written: this.retried.written },
        'mqtt: message written after the database came back',
      );
    }
    this.retried = { written: 0, loggedAt: Date.now() };
  }

  private async handle(sn: string, kind: ControlKind, data: unknown): Promise<void> {
    switch (kind) {
      case 'hello':
        return this.hello(sn, data as Hello);
      case 'state':
        return this.state(sn, data as StateMessage);
      case 'event':
        return this.event(sn, data as DeviceEvent);
      case 'reply':
        return this.hooks.onReply(sn, data as Reply);
    }
  }

  private async hello(sn: string, h: Hello): Promise<void> {
    const row = await this.hellos.add({ sn, message: h, now: this.now() });
    this.metrics?.committed('hello', h.ts);
    if (row) await this.hooks.afterHello(row);
  }

  private async state(sn: string, s: StateMessage): Promise<void> {
    const row = await this.states.add({ sn, message: s, now: this.now() });
    // A last will carries the time its connection was made, not when it was sent: no lag.
    if (isLastWill(s)) this.metrics?.lastWill();
    else this.metrics?.committed('state', s.ts);
    if (row) await this.hooks.afterState?.(row);
  }

  /**
   * Hellos of many devices in one transaction: the rows locked in SN order, a row inserted for a
   * device never seen, one multi-row UPDATE, the status events in one statement.
   */
  private async writeHellos(items: Item<Hello>[]): Promise<(DeviceRow | null)[]> {
    const pushed: string[] = [];
    let stale = 0;
    const written = await this.database.db.transaction(async (tx) => {
      const locked = await lockDevices(
        tx,
        items.map((i) => i.sn),
      );
      const unknown = items.filter((i) => !locked.has(i.sn));
      if (unknown.length) {
        await tx
          .insert(devices)
          .values(
            // The trigger adds each one's state row; the update below fills it.
            unknown.map(({ sn, message: h, now }) => ({
              sn,
              ...identityOf(h),
              firstSeenAt: now,
              createdAt: now,
              updatedAt: now,
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
      const changes: DeviceChange[] = [];
      const results = items.map(({ sn, message: h, now }): DeviceRow | null => {
        const current = locked.get(sn)!;
        if (isStaleHello(h, current)) {
          stale++;
          return null;
        }
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
        changes.push({ before: current, after: row, hello: true });
        return row;
      });
      const rows = results.filter((row): row is DeviceRow => row !== null);
      await updateRows(tx, deviceState, 'sn', HELLO_STATE_COLUMNS, rows);
      const inventory = inventoryChanged(
        changes.map(({ before, after }) => ({ before, after })),
        HELLO_INVENTORY_COLUMNS,
      );
      await updateRows(
        tx,
        devices,
        'sn',
        [...HELLO_INVENTORY_COLUMNS, 'updatedAt'],
        inventory.map((row) => ({ ...row, updatedAt: this.now() })),
      );
      await publishEvents(tx, events);
      await settleFinalOutcomes(tx, changes, this.now());
      pushed.push(...(await this.backToCloud(tx, changes, this.now())));
      return results;
    });
    this.counts.stale += stale;
    for (const sn of pushed) this.hooks.push?.(sn);
    return written;
  }

  /**
   * States of many devices in one transaction. A state that changes nothing (the usual first state
   * after a hello, or a repeat) writes nothing: last_seen_at then moves with the next telemetry.
   */
  private async writeStates(items: Item<StateMessage>[]): Promise<(DeviceRow | null)[]> {
    const pushed: string[] = [];
    const written = await this.database.db.transaction(async (tx) => {
      const locked = await lockDevices(
        tx,
        items.map((i) => i.sn),
      );
      const events: BusEvent[] = [];
      const writes: DeviceRow[] = [];
      const away: string[] = [];
      const changes: DeviceChange[] = [];
      let stale = 0;
      const stamps: DeviceRow[] = [];
      const results = items.map(({ sn, message: s, now }): DeviceRow | null => {
        const current = locked.get(sn);
        // A state (or a retained last will) of a device that never said hello: wait for its hello.
        if (!current) return null;
        if (isLastWill(s)) {
          if (isOfflineStatus(current.status)) return null;
          // The will of a connection older than the one whose hello we have: the broker delivered
          // it late (after the reconnect); the device is here.
          if (current.connectedAt && s.ts < current.connectedAt.getTime()) return null;
          const row: DeviceRow = {
            ...current,
            status: DeviceStatus.OFFLINE,
            operation: null,
            progress: null,
          };
          writes.push(row);
          pushStatusEvent(events, row, current.status, now);
          return row;
        }
        // Handled after a newer state of the same connection (by another instance): ignored.
        if (isStale(s.ts, current.stateTs)) {
          stale++;
          return null;
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
          stateTs: s.ts,
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
        if (same) {
          // Only its time is written (a state older than it is stale), unless it is stored already.
          if (current.stateTs !== s.ts) stamps.push({ ...current, stateTs: s.ts });
          return current;
        }
        writes.push(row);
        if (changed) pushStatusEvent(events, row, current.status, now);
        if (isAwayStatus(row.status) && row.status !== current.status) away.push(sn);
        changes.push({ before: current, after: row, hello: false });
        return row;
      });
      await updateRows(tx, deviceState, 'sn', STATE_STATE_COLUMNS, writes);
      await updateRows(tx, deviceState, 'sn', ['stateTs'], stamps);
      const before = new Map([...locked.values()].map((row) => [row.sn, row]));
      const inventory = inventoryChanged(
        writes.map((after) => ({ before: before.get(after.sn)!, after })),
        STATE_INVENTORY_COLUMNS,
      );
      await updateRows(
        tx,
        devices,
        'sn',
        [...STATE_INVENTORY_COLUMNS, 'updatedAt'],
        inventory.map((row) => ({ ...row, updatedAt: this.now() })),
      );
      await scheduleAwayChecks(tx, away, new Date(this.now().getTime() + this.awayDeadlineMs));
      // A device that went offline takes its clients with it (clients/ingest.ts).
      const offline = writes.filter((r) => isOfflineStatus(r.status)).map((r) => r.sn);
      if (offline.length) {
        try {
          await ensureClientPartitions(this.database, this.now());
          events.push(...(await tx.transaction((sp) => dropClientsOf(sp, offline, this.now()))));
        } catch (err) {
          // The upkeep job removes them later; the status itself must not be lost.
          if (isTransientDbError(err)) throw err;
          this.log.error({ err }, 'mqtt: clients of devices gone offline not removed');
        }
      }
      await publishEvents(tx, events);
      await settleFinalOutcomes(tx, changes, this.now());
      pushed.push(...(await this.backToCloud(tx, changes, this.now())));
      return { results, stale };
    });
    this.counts.stale += written.stale;
    for (const sn of pushed) this.hooks.push?.(sn);
    return written.results;
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
        telemetry: storedTelemetry(t),
        telemetryAt: now,
        telemetryTs: t.ts,
        lastSeenAt: now,
      };
    });
    await ensureClientPartitions(this.database, this.now());
    let stale = 0;
    const samples = await this.database.db.transaction(async (tx) => {
      // The row lock also reads the previous telemetry: its counters make this one's byte deltas.
      const previous = await lockPrevious(
        tx,
        rows.map((r) => r.sn),
      );
      // Not over a newer telemetry of the same connection (isStale, in SQL: every instance agrees).
      const written = await updateRows(
        tx,
        deviceState,
        'sn',
        TELEMETRY_COLUMNS,
        rows as Partial<DeviceRow>[],
        {
          keep: ['ports', 'portCount', 'meshRole'],
          extraWhere: (v) =>
            sql`(t.telemetry_ts is null or ${v('telemetryTs')} >= t.telemetry_ts or t.telemetry_ts - ${v('telemetryTs')} > ${DEVICE_LIMITS.STALE_WINDOW_MS})`,
        },
      );
      const fresh = items.filter((i) => written.has(i.sn) || !previous.has(i.sn));
      stale = items.length - fresh.length;
      // Online clients (clients/ingest.ts, decision 0035): each device's list replaces its last.
      // In a savepoint: a failure of its own costs the batch its clients, not the device state.
      let clientEvents: BusEvent[] = [];
      try {
        clientEvents = await tx.transaction((sp) => syncOnlineClients(sp, fresh));
      } catch (err) {
        if (isTransientDbError(err)) throw err;
        this.log.error({ err }, 'mqtt: online clients of a telemetry batch not written');
      }
      await publishEvents(tx, clientEvents);
      // Link neighbours (topology/ingest.ts, decision 0050), in a savepoint of their own likewise.
      try {
        await publishEvents(tx, await tx.transaction((sp) => storeLinks(sp, fresh)));
      } catch (err) {
        if (isTransientDbError(err)) throw err;
        this.log.error({ err }, 'mqtt: link neighbours of a telemetry batch not written');
      }
      return sampleBatch(fresh, previous);
    });
    this.counts.stale += stale;
    // Statistics after the state commit, in their own statements: a failure there is logged and
    // costs a sample, never the device's state (which a retry of the batch would write twice).
    await this.statsWriter
      .write(samples, this.now())
      .catch((err) => this.log.warn({ err: (err as Error).message }, 'stats: telemetry samples not stored'));
    return items.map(() => null);
  }

  /** Device events of many devices in one transaction (src/logs/device-events.ts). */
  private async event(sn: string, e: DeviceEvent): Promise<void> {
    await this.events.add({ sn, event: e, now: this.now() });
    this.metrics?.committed('event', e.ts);
  }
}

/**
 * The snapshot kept in `device_state.telemetry`: the message without its client list, which has a
 * table of its own (online_clients). Twenty clients made the row ~5 KB, stored out of line (TOAST)
 * and rewritten in full every telemetry period; without them it stays on its page, where the update
 * can be HOT (docs/decisions/0071).
 */
function storedTelemetry(t: Telemetry): Omit<Telemetry, 'clients'> {
  const { clients: _listed, ...rest } = t;
  return rest;
}

/** What a hello says the device is (inventory columns). */
function identityOf(h: Hello) {
  return {
    model: h.model,
    type: h.type,
    mac: h.mac.toUpperCase(),
    capabilities: h.capabilities,
    managementMode: h.mode,
  };
}

/** What a hello reports, as device columns (inventory and state). */
function reportedOf(h: Hello, now: Date) {
  return {
    ...identityOf(h),
    firmware: h.firmware,
    hardware: h.hardware ?? null,
    ip: h.ip,
    deviceMode: h.deviceMode ?? null,
    meshRole: h.meshRole ?? null,
    cpeMode: h.cpeMode ?? null,
    bootId: h.bootId,
    connectedAt: h.connectedAt === undefined ? null : new Date(h.connectedAt),
    uptime: h.uptime,
    helloUptime: h.uptime,
    reportedRevision: h.revision,
    lastSeenAt: now,
    // A new connection: its state and telemetry are not compared with the last one's (a rebooted
    // device's clock may read earlier than before).
    stateTs: null,
    telemetryTs: null,
  };
}

/**
 * Locks the devices' rows, inventory and state, in SN order (so that batches and single writers
 * cannot deadlock) and answers them by SN. Writers that lock both take `devices` first.
 * FOR NO KEY UPDATE, not FOR UPDATE: these writes never change an SN, and a telemetry batch that holds
 * a device's state row inserts rows referencing the device (a new client, a first link row), whose
 * foreign-key check takes KEY SHARE on the device row. FOR UPDATE conflicts with that, and the two
 * deadlocked in a reconnect storm (test/device-lock-modes.test.ts).
 */
async function lockDevices(db: DbOrTx, sns: string[]): Promise<Map<string, DeviceRow>> {
  const map = new Map<string, DeviceRow>();
  if (sns.length === 0) return map;
  const rows = await selectDevices(db)
    .where(inTexts(devices.sn, sns))
    .orderBy(asc(devices.sn))
    .for('no key update');
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
