import { randomUUID } from 'node:crypto';
import {
  AppError,
  busyCode,
  COMMAND_EXPIRED,
  COMMAND_PARAMS,
  Codes,
  type CommandName,
  type CommandParamsInput,
  CommandState,
  type DeviceConfigInput,
  DeviceConfigState,
  downTopic,
  errorMessage,
  failureFromZod,
  isOfflineStatus,
  LIMITS,
  makeCommand,
  type Reply,
  redactSecrets,
} from '@beacon/protocol';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { commitDeviceRevision } from '../config/repository.ts';
import type { Config } from '../config.ts';
import type { Database, DbOrTx, Tx } from '../db/client.ts';
import { deviceCommands, deviceState, devices } from '../db/schema.ts';
import type { DeviceRow } from '../devices/row.ts';
import { selectDevices } from '../devices/row.ts';
import { type BusEvent, type EventBus, publishEvent, publishEvents } from '../events/bus.ts';
import type { Secrets } from '../security/secrets.ts';
import { Batcher, insertRows, withRetry } from './batch.ts';
import { acceptFinalOutcomes, NO_FINAL_OUTCOME } from './outcomes.ts';

/**
 * Commands to devices (DESIGN.md invariant 4) — the API the maintenance actions build on.
 *
 *   sendCommand(sn, name, params, actor, options?) → Promise<CommandOutcome>
 *   sendCommandToMany(sns, name, params, actor, options?) → Promise<CommandOutcome[]>
 *   setDesiredConfig(sn, document, actor) → Promise<{ revision, outcome | null }>
 *
 * - One command at a time per device: a command row in state `sent` is the device's lock (claimed
 *   under the device row's FOR UPDATE lock, so two server instances cannot both claim it). A second
 *   command to the same device waits for the first to end (at most until its own deadline).
 * - Exactly one recorded outcome per command: the row goes from `sent` to `success`, `failed` (the
 *   device's catalogue code) or `timeout` (5025) by one conditional UPDATE (… where state = 'sent'),
 *   whichever of reply, timer or sweeper comes first; the losers change nothing.
 * - A command to an offline device fails at once with 36 (recorded, never dropped); to an upgrading
 *   one (status 3, 4, 5), with 71; to a device Beacon does not know (deleted), with 410.
 * - The reply may reach another server instance (shared subscription): outcomes travel as `command`
 *   events through PostgreSQL NOTIFY, which also feed the browsers' WebSocket.
 * - sendCommand resolves with the outcome; it throws only for invalid parameters (AppError 16).
 *   It does not check project permissions: the caller's route does (projects/access.ts).
 * - A pending configuration is re-sent when the device is back (invariant 3): after its hello, and
 *   after any state of an idle online device that still runs another revision — the server's link
 *   misses the hello of a device that reconnects while the link itself is away (a broker restart:
 *   devices are often back first), and learns of the device from its retained state instead.
 */

/**
 * The code a command gets at once, recorded without reaching the device: 410 a device Beacon does
 * not know (deleted), 36 offline, 71 upgrading. A device upgrading refuses every command itself
 * (SPEC.md §4, busyCode); while it writes its flash it is away (status 3, it left cleanly, so no
 * last will marks it offline), and a command published then would only wait for its timeout.
 */
export function immediateCode(
  device: { status: number; operation: string | null; projectId?: number | null } | undefined,
  projectId?: number,
): number | null {
  if (!device) return Codes.DEVICE_DELETED;
  // Sent for a project the device has left since the action was checked (SPEC.md §8: 410).
  if (projectId !== undefined && device.projectId !== projectId) return Codes.DEVICE_DELETED;
  if (isOfflineStatus(device.status)) return Codes.DEVICE_OFFLINE;
  if (busyCode(device.status, device.operation) === Codes.UPGRADING) return Codes.UPGRADING;
  return null;
}

export interface CommandActor {
  accountId: number | null;
  account: string;
}

/** The system itself (configuration re-sends on hello, demo). */
export const SYSTEM_ACTOR: CommandActor = { accountId: null, account: 'system' };

export interface CommandOutcome {
  id: string;
  sn: string;
  name: CommandName;
  state: CommandState;
  /** 0 success, else a catalogue code: 36 offline, 410 unknown device, 5025 timeout, or the device's. */
  code: number;
  message: string | null;
  /** What the device answered besides the code (e.g. the remote-management URL). */
  data: Record<string, unknown> | null;
}

export interface SendOptions {
  /** How long to wait for the reply; default config.commandTimeoutMs (+ the save time for apply-config). */
  timeoutMs?: number;
  /** The write the command's record belongs to (an administrator's action and its audit row). */
  scope?: CommandScope;
}

/** A command record (or a committed revision) as the scope's transaction wrote it. */
export interface CommandRecord {
  sn: string;
  /** null: no command (a revision committed for a device that is away). */
  commandId: string | null;
  state: CommandState | null;
  /** A code recorded at once (36 offline, 71 upgrading, 410…); null while the command is sent. */
  code: number | null;
  revision?: number;
}

/**
 * Where a command is claimed: the transaction it is recorded in, so the action's audit row commits
 * with its command record (invariant 2; the maintenance actions use the project write path,
 * projects/write.ts). `recorded` is told of every record the body wrote, and of nothing when the
 * body recorded nothing (a busy device waits and tries again in a later transaction).
 */
export interface CommandScope {
  transaction<T>(
    body: (tx: Tx, recorded: (records: readonly CommandRecord[]) => void) => Promise<T>,
  ): Promise<T>;
  /** Only devices still in this project are claimed; a device that left it ends at once with 410. */
  projectId?: number;
}

const recordOf = (row: CommandRow): CommandRecord => ({
  sn: row.sn,
  commandId: row.id,
  state: row.state as CommandState,
  code: row.code,
});

type CommandRow = typeof deviceCommands.$inferSelect;

/** What claim() reads of the device row, under its lock. */
interface ClaimedDevice {
  sn: string;
  projectId: number | null;
  status: number;
  operation: string | null;
  desiredRevision: number;
  reportedRevision: number;
  desiredHash: string | null;
  reportedHash: string | null;
  configStatus: string;
}

/**
 * The device runs another configuration than the desired one: another revision, or the desired
 * revision with other content (drift: its reported hash differs; no hash reported = no drift seen).
 */
export function runsOtherConfig(
  d: Pick<ClaimedDevice, 'desiredRevision' | 'reportedRevision' | 'desiredHash' | 'reportedHash'>,
): boolean {
  if (d.reportedRevision !== d.desiredRevision) return true;
  return d.desiredHash !== null && d.reportedHash !== null && d.reportedHash !== d.desiredHash;
}

/**
 * A re-send of a pending configuration (converge) is claimed only while the device still needs
 * that revision and can take it: the same revision still desired and pending, the device running
 * something else, online and idle (canTakeConfig). Checked under the device row's lock, so a
 * re-send that waited for another command to end does not repeat a revision that command has just
 * applied.
 */
function stillPending(revision: number) {
  return (d: ClaimedDevice) =>
    d.desiredRevision === revision &&
    d.configStatus === DeviceConfigState.PENDING &&
    runsOtherConfig(d) &&
    canTakeConfig(d);
}

/** Codes of a push that did not reach a decision on the device: tried again later, still pending. */
const RETRYABLE_CONFIG_CODES: ReadonlySet<number> = new Set([
  COMMAND_EXPIRED,
  Codes.DEVICE_OFFLINE,
  Codes.UPGRADING,
  Codes.DEVICE_BUSY,
  Codes.REPEATED_CLICKS,
]);

/** Delay before push n of a pending configuration: base, 2×, 4×, … at most an hour. */
export function configRetryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Online in any sense (1, 2 upgrade done, 6 upload failed, 7 online not saved) and not busy
 * (busyCode: upgrading, restarting or in another operation) — a device that stays at 2 or 7 still
 * gets its pending configuration.
 */
function canTakeConfig(d: { status: number; operation: string | null }): boolean {
  return !isOfflineStatus(d.status) && busyCode(d.status, d.operation) === null;
}

interface Waiter {
  sn: string;
  name: CommandName;
  resolve(outcome: CommandOutcome): void;
}

/** Every column of a command row (claimMany writes them all). */
export const COMMAND_COLUMNS = [
  'id',
  'sn',
  'projectId',
  'name',
  'params',
  'state',
  'code',
  'message',
  'data',
  'accountId',
  'accountName',
  'createdAt',
  'expiresAt',
  'finishedAt',
] as const;

/** A device's commands are claimed this many at a time by sendToMany (one transaction each). */
const CLAIM_CHUNK = 500;

/** An outcome waiting to be recorded (recordMany). `sn` null: not a device's reply (a timeout). */
interface OutcomeItem {
  id: string;
  sn: string | null;
  state: CommandState;
  code: number;
  message: string | null;
  data: Record<string, unknown> | null;
}

/** The `command` live event of a command row. */
function commandEvent(row: CommandRow): BusEvent {
  // Commands to unclaimed devices still wake local waiters: projectId 0 reaches no browser.
  return {
    type: 'command',
    projectId: row.projectId ?? 0,
    sn: row.sn,
    id: row.id,
    name: row.name,
    state: row.state as CommandState,
    code: row.code,
    message: row.message,
    at: (row.finishedAt ?? row.createdAt).toISOString(),
  };
}

function outcomeOf(row: CommandRow): CommandOutcome {
  return {
    id: row.id,
    sn: row.sn,
    name: row.name as CommandName,
    state: row.state as CommandState,
    code: row.code ?? 0,
    message: row.message,
    data: (row.data as Record<string, unknown> | null) ?? null,
  };
}

export interface CommandServiceDeps {
  database: Database;
  bus: EventBus;
  config: Pick<Config, 'commandTimeoutMs' | 'configRetryBaseMs'>;
  /** Opens the sealed secrets of a configuration just before it is sent (security/secrets.ts). */
  secrets: Secrets;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>;
  now(): Date;
  /** Publishes on the broker (the gateway's server link). */
  publish(topic: string, payload: string): Promise<void>;
}

export class CommandService {
  private readonly waiters = new Map<string, Waiter>();
  /** Replies and timeouts are recorded many at a time (batch.ts, recordMany). */
  private readonly outcomes = new Batcher<OutcomeItem, CommandRow | null>((items) => this.recordMany(items));
  /** Local wake-ups for commands waiting for their device to be free. */
  private readonly freed = new Map<string, Set<() => void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Devices a setDesiredConfig of this instance is pushing a revision to (how many at once). */
  private readonly pushing = new Map<string, number>();
  /** Devices this instance is re-sending a pending configuration to (one re-send at a time). */
  private readonly resending = new Set<string>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly d: CommandServiceDeps) {
    this.unsubscribe = d.bus.subscribe((event) => this.onEvent(event));
  }

  /** Seals and opens device secrets (the configuration domain stores documents sealed). */
  get secrets(): Secrets {
    return this.d.secrets;
  }

  /** Starts the sweeper that ends commands whose sender died before their deadline (every 5 s). */
  start(): void {
    this.sweeper = setInterval(() => void this.sweep().catch(() => {}), 5000);
    this.sweeper.unref();
  }

  /**
   * Stops (server shutdown, after the link stopped taking device messages): no reply can reach the
   * commands this instance still waits for, so each ends now as a timeout (5025, recorded — the
   * database is still open) and its caller gets that outcome. Later sends throw 2000.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.sweeper) clearInterval(this.sweeper);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const waiting = [...this.waiters];
    this.waiters.clear();
    await Promise.all(
      waiting.map(async ([id, waiter]) => {
        const message = 'The server stopped before the device replied';
        const row = await this.record(id, null, CommandState.TIMEOUT, COMMAND_EXPIRED, message, null);
        waiter.resolve(
          row
            ? outcomeOf(row)
            : {
                id,
                sn: waiter.sn,
                name: waiter.name,
                state: CommandState.TIMEOUT,
                code: COMMAND_EXPIRED,
                message,
                data: null,
              },
        );
      }),
    );
    for (const wakes of this.freed.values()) for (const wake of [...wakes]) wake();
  }

  private timeoutFor(name: CommandName, options?: SendOptions): number {
    if (options?.timeoutMs !== undefined) return options.timeoutMs;
    // A configuration takes the device up to 12 s to save (SPEC.md §9) before it answers; the
    // deadline grows by that much, at most doubling (short timeouts in tests stay short).
    const base = this.d.config.commandTimeoutMs;
    const extra = name === 'apply-config' ? Math.min(LIMITS.CONFIG_SAVE_MAX_SECONDS * 1000, base) : 0;
    return base + extra;
  }

  /** Sends one command and resolves with its one recorded outcome. */
  async send<N extends CommandName>(
    sn: string,
    name: N,
    params: CommandParamsInput<N>,
    actor: CommandActor,
    options?: SendOptions,
  ): Promise<CommandOutcome> {
    const parsed = COMMAND_PARAMS[name].safeParse(params);
    if (!parsed.success) {
      const failure = failureFromZod(parsed.error);
      throw new AppError(failure.code, failure.message, failure.fields);
    }
    if (this.closed) throw new AppError(Codes.SERVER, 'The server is shutting down');
    return (await this.run(
      sn,
      name,
      parsed.data,
      actor,
      this.timeoutFor(name, options),
      undefined,
      options?.scope,
    ))!;
  }

  /**
   * Claims (waiting while another command runs on the device) and dispatches. With `onlyIf`, the
   * command is claimed only while the device row passes it (checked under the row's lock each time
   * it is tried); otherwise nothing is recorded and the result is null.
   */
  private async run(
    sn: string,
    name: CommandName,
    params: unknown,
    actor: CommandActor,
    timeoutMs: number,
    onlyIf?: (device: ClaimedDevice) => boolean,
    scope?: CommandScope,
  ): Promise<CommandOutcome | null> {
    const id = randomUUID();
    // How long this caller really waits for a busy device (timers run on the wall clock).
    const giveUpAt = Date.now() + timeoutMs;
    for (;;) {
      const claim = await this.claim(sn, id, name, params, actor, timeoutMs, giveUpAt, onlyIf, scope);
      if (claim.kind === 'skipped') return null;
      if (claim.kind === 'done') return claim.outcome;
      if (claim.kind === 'claimed') break;
      // Another command is running on the device: wait until it ends, then try again.
      await this.waitFree(sn, Math.min(500, Math.max(10, giveUpAt - Date.now())));
    }
    return this.dispatch(sn, id, name, params, timeoutMs);
  }

  /** Publishes a claimed command; resolves with its one recorded outcome (the reply, or a timeout). */
  private async dispatch(
    sn: string,
    id: string,
    name: CommandName,
    params: unknown,
    timeoutMs: number,
  ): Promise<CommandOutcome> {
    const outcome = new Promise<CommandOutcome>((resolve) => this.waiters.set(id, { sn, name, resolve }));
    // The device compares this with its own clock: the wall clock, not deps.now() (which tests move).
    const expiresAt = Date.now() + timeoutMs;
    const payload = JSON.stringify(makeCommand(name, params as never, id, { expiresAt }));
    this.d.publish(downTopic(sn), payload).catch((err) => {
      this.d.log.warn({ err: (err as Error).message, sn, id }, 'command publish failed; it will time out');
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.outcomes
        .add({
          id,
          sn: null,
          state: CommandState.TIMEOUT,
          code: COMMAND_EXPIRED,
          message: 'No reply from the device in time',
          data: null,
        })
        .catch((err) => this.d.log.error({ err, id }, 'recording a command timeout failed'));
    }, timeoutMs);
    this.timers.add(timer);
    const result = await outcome;
    clearTimeout(timer);
    this.timers.delete(timer);
    return result;
  }

  /**
   * The same command to many devices at once, one outcome per device (in the order given). The
   * claims are made 500 devices at a time, each chunk in one transaction (claimMany); a device busy
   * with another command, or named twice, goes the way of send() and waits its turn.
   */
  async sendToMany<N extends CommandName>(
    sns: readonly string[],
    name: N,
    params: CommandParamsInput<N>,
    actor: CommandActor,
    options?: SendOptions,
  ): Promise<CommandOutcome[]> {
    const parsed = COMMAND_PARAMS[name].safeParse(params);
    if (!parsed.success) {
      const failure = failureFromZod(parsed.error);
      throw new AppError(failure.code, failure.message, failure.fields);
    }
    if (this.closed) throw new AppError(Codes.SERVER, 'The server is shutting down');
    const timeoutMs = this.timeoutFor(name, options);
    const outcomes: Promise<CommandOutcome>[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < sns.length; i += CLAIM_CHUNK) {
      const chunk = sns.slice(i, i + CLAIM_CHUNK);
      const fresh = chunk.filter((sn) => !seen.has(sn) && seen.add(sn));
      // A deadlock rolls the chunk back whole, so it is safe to run again (batch.ts withRetry).
      const claims = await withRetry(() =>
        this.claimMany(fresh, name, parsed.data, actor, timeoutMs, options?.scope),
      );
      const taken = new Set<string>();
      for (const sn of chunk) {
        const claim = claims.get(sn);
        if (!claim || claim.kind === 'busy' || taken.has(sn)) {
          outcomes.push(this.send(sn, name, params, actor, options));
          continue;
        }
        taken.add(sn);
        outcomes.push(
          claim.kind === 'done'
            ? Promise.resolve(claim.outcome)
            : this.dispatch(sn, claim.id, name, parsed.data, timeoutMs),
        );
      }
    }
    return Promise.all(outcomes);
  }

  /**
   * claim() for many devices in one transaction: the device rows locked in SN order (as the ingest
   * batches lock them), the open commands of all of them in one query, the command rows in one
   * multi-row INSERT and their events in one statement. Same rules as claim(): unknown 410,
   * offline 36, another command open = busy (the caller waits), else the command row is the claim.
   */
  private async claimMany(
    sns: string[],
    name: CommandName,
    params: unknown,
    actor: CommandActor,
    timeoutMs: number,
    scope?: CommandScope,
  ): Promise<
    Map<
      string,
      { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed'; id: string } | { kind: 'busy' }
    >
  > {
    const claims = new Map<
      string,
      { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed'; id: string } | { kind: 'busy' }
    >();
    if (sns.length === 0) return claims;
    const now = this.d.now();
    const expiresAt = new Date(now.getTime() + timeoutMs);
    return this.transaction(scope)(async (tx, recorded) => {
      const found = await tx
        .select({
          sn: devices.sn,
          projectId: devices.projectId,
          status: deviceState.status,
          operation: deviceState.operation,
        })
        .from(devices)
        .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
        .where(inArray(devices.sn, sns))
        .orderBy(asc(devices.sn))
        .for('update', { of: devices });
      const bySn = new Map(found.map((d) => [d.sn, d]));
      const open = await tx
        .select({ sn: deviceCommands.sn })
        .from(deviceCommands)
        .where(
          and(
            inArray(deviceCommands.sn, sns),
            eq(deviceCommands.state, CommandState.SENT),
            gt(deviceCommands.expiresAt, now),
          ),
        );
      const busy = new Set(open.map((o) => o.sn));
      const stored = redactSecrets(params as object);
      const rows: CommandRow[] = [];
      for (const sn of sns) {
        const device = bySn.get(sn);
        if (device && busy.has(sn)) {
          claims.set(sn, { kind: 'busy' });
          continue;
        }
        const code = immediateCode(device, scope?.projectId);
        const row: CommandRow = {
          id: randomUUID(),
          sn,
          projectId: device?.projectId ?? null,
          name,
          params: stored,
          state: code === null ? CommandState.SENT : CommandState.FAILED,
          code,
          message: code === null ? null : errorMessage(code),
          data: null,
          accountId: actor.accountId,
          accountName: actor.account,
          createdAt: now,
          expiresAt,
          finishedAt: code === null ? null : now,
          ...NO_FINAL_OUTCOME,
        };
        rows.push(row);
        claims.set(
          sn,
          code === null ? { kind: 'claimed', id: row.id } : { kind: 'done', outcome: outcomeOf(row) },
        );
      }
      await insertRows(tx, deviceCommands, COMMAND_COLUMNS, rows);
      await publishEvents(tx, rows.map(commandEvent));
      recorded(rows.map(recordOf));
      return claims;
    });
  }

  /**
   * In one transaction under the device row's lock: records an immediate outcome (unknown device
   * 410, offline 36, upgrading 71), or reports the device busy, or inserts the command as `sent`
   * (the claim).
   */
  private async claim(
    sn: string,
    id: string,
    name: CommandName,
    params: unknown,
    actor: CommandActor,
    timeoutMs: number,
    giveUpAt: number,
    onlyIf?: (device: ClaimedDevice) => boolean,
    scope?: CommandScope,
  ): Promise<
    { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed' } | { kind: 'busy' } | { kind: 'skipped' }
  > {
    const now = this.d.now();
    return this.transaction(scope)(async (tx, recorded) => {
      const [device] = await tx
        .select({
          sn: devices.sn,
          projectId: devices.projectId,
          status: deviceState.status,
          operation: deviceState.operation,
          desiredRevision: devices.desiredRevision,
          reportedRevision: deviceState.reportedRevision,
          desiredHash: devices.desiredHash,
          reportedHash: deviceState.reportedHash,
          configStatus: devices.configStatus,
        })
        .from(devices)
        .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
        .where(eq(devices.sn, sn))
        .for('update', { of: devices });
      if (onlyIf && !(device && onlyIf(device))) return { kind: 'skipped' as const };
      const base = {
        id,
        sn,
        projectId: device?.projectId ?? null,
        name,
        // Command history never keeps a secret (a device password, a Wi-Fi key of a document).
        params: redactSecrets(params as object),
        accountId: actor.accountId,
        accountName: actor.account,
        createdAt: now,
        expiresAt: new Date(now.getTime() + timeoutMs),
      };
      const immediate = async (code: number) => {
        const [row] = await tx
          .insert(deviceCommands)
          .values({ ...base, state: CommandState.FAILED, code, message: errorMessage(code), finishedAt: now })
          .returning();
        await this.event(tx, row);
        recorded([recordOf(row)]);
        return { kind: 'done' as const, outcome: outcomeOf(row) };
      };
      const code = immediateCode(device, scope?.projectId);
      if (code !== null) return immediate(code);
      const [open] = await tx
        .select({ id: deviceCommands.id })
        .from(deviceCommands)
        .where(
          and(
            eq(deviceCommands.sn, sn),
            eq(deviceCommands.state, CommandState.SENT),
            gt(deviceCommands.expiresAt, now),
          ),
        )
        .limit(1);
      if (open) {
        if (Date.now() >= giveUpAt) {
          if (onlyIf) return { kind: 'skipped' as const };
          const [row] = await tx
            .insert(deviceCommands)
            .values({
              ...base,
              state: CommandState.TIMEOUT,
              code: COMMAND_EXPIRED,
              message: 'Another command to the device did not end in time',
              finishedAt: now,
            })
            .returning();
          await this.event(tx, row);
          recorded([recordOf(row)]);
          return { kind: 'done' as const, outcome: outcomeOf(row) };
        }
        return { kind: 'busy' as const };
      }
      const [row] = await tx
        .insert(deviceCommands)
        .values({ ...base, state: CommandState.SENT })
        .returning();
      await this.event(tx, row);
      recorded([recordOf(row)]);
      return { kind: 'claimed' as const };
    });
  }

  /** The claim's transaction: the scope's (an action's write), or one of its own. */
  private transaction(scope: CommandScope | undefined): CommandScope['transaction'] {
    return scope
      ? (body) => scope.transaction(body)
      : (body) => this.d.database.db.transaction((tx) => body(tx, () => {}));
  }

  private waitFree(sn: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.freed.get(sn) ?? new Set();
      this.freed.set(sn, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.freed.get(sn) === set) this.freed.delete(sn);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  /**
   * Records the outcome if the command is still `sent` (exactly one outcome wins). `sn` restricts a
   * device's reply to its own commands.
   */
  async finish(
    id: string,
    sn: string | null,
    state: CommandState,
    code: number,
    message: string | null,
    data: Record<string, unknown> | null,
  ): Promise<CommandRow | null> {
    if (this.closed) return null;
    return this.record(id, sn, state, code, message, data);
  }

  private async record(
    id: string,
    sn: string | null,
    state: CommandState,
    code: number,
    message: string | null,
    data: Record<string, unknown> | null,
  ): Promise<CommandRow | null> {
    try {
      return await this.d.database.db.transaction(async (tx) => {
        const [row] = await tx
          .update(deviceCommands)
          .set({ state, code, message, data, finishedAt: this.d.now() })
          .where(
            and(
              eq(deviceCommands.id, id),
              eq(deviceCommands.state, CommandState.SENT),
              sn === null ? undefined : eq(deviceCommands.sn, sn),
            ),
          )
          .returning();
        if (!row) return null;
        await this.event(tx, row);
        if (row.name === 'apply-config') await this.configOutcome(tx, row);
        await acceptFinalOutcomes(tx, [row]);
        return row;
      });
    } catch (err) {
      this.d.log.error({ err, id }, 'recording a command outcome failed');
      return null;
    }
  }

  /** A device's reply (from ingest). */
  async onReply(sn: string, reply: Reply): Promise<void> {
    const state = reply.code === 0 ? CommandState.SUCCESS : CommandState.FAILED;
    const message = reply.message ?? (reply.code === 0 ? null : errorMessage(reply.code));
    await this.outcomes.add({ id: reply.id, sn, state, code: reply.code, message, data: reply.data ?? null });
  }

  /**
   * finish() for many commands in one transaction: one conditional multi-row UPDATE (… and state =
   * 'sent', so exactly one outcome per command still wins), the events in one statement. A waiter
   * of this instance gets its outcome from the rows at hand, without reading the command again.
   */
  private async recordMany(items: OutcomeItem[]): Promise<(CommandRow | null)[]> {
    if (this.closed) return items.map(() => null);
    // The same command twice in one batch (a timer and a late reply): the first one is tried.
    const first = new Map<string, OutcomeItem>();
    for (const item of items) if (!first.has(item.id)) first.set(item.id, item);
    const finishedAt = this.d.now();
    const written = await this.d.database.db.transaction(async (tx) => {
      const data = [...first.values()].map((o) => ({
        id: o.id,
        sn: o.sn,
        state: o.state,
        code: o.code,
        message: o.message,
        data: o.data === null ? null : JSON.stringify(o.data),
      }));
      const updated = await tx.execute<{ id: string }>(
        sql`update ${deviceCommands} as t
            set state = v.state, code = v.code, message = v.message, data = v.data::jsonb, finished_at = ${finishedAt}
            from jsonb_to_recordset(${JSON.stringify(data)}::jsonb)
              as v(id text, sn text, state text, code integer, message text, data text)
            where t.id = v.id and t.state = ${CommandState.SENT} and (v.sn is null or t.sn = v.sn)
            returning t.id`,
      );
      const ids = (updated as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await tx.select().from(deviceCommands).where(inArray(deviceCommands.id, ids));
      await publishEvents(tx, rows.map(commandEvent));
      for (const row of rows) if (row.name === 'apply-config') await this.configOutcome(tx, row);
      await acceptFinalOutcomes(tx, rows);
      return rows;
    });
    const byId = new Map(written.map((row) => [row.id, row]));
    for (const row of written) {
      const waiter = this.waiters.get(row.id);
      if (waiter) {
        this.waiters.delete(row.id);
        waiter.resolve(outcomeOf(row));
      }
    }
    return items.map((item) => (first.get(item.id) === item ? (byId.get(item.id) ?? null) : null));
  }

  /** Ends every `sent` command past its deadline (its sender may have stopped). */
  async sweep(): Promise<number> {
    const rows = await this.d.database.db.transaction(async (tx) => {
      const ended = await tx
        .update(deviceCommands)
        .set({
          state: CommandState.TIMEOUT,
          code: COMMAND_EXPIRED,
          message: 'No reply from the device in time',
          finishedAt: this.d.now(),
        })
        .where(and(eq(deviceCommands.state, CommandState.SENT), lt(deviceCommands.expiresAt, this.d.now())))
        .returning();
      for (const row of ended) await this.event(tx, row);
      return ended;
    });
    return rows.length;
  }

  private async event(tx: DbOrTx, row: CommandRow): Promise<void> {
    await publishEvent(tx, commandEvent(row));
  }

  private onEvent(event: BusEvent): void {
    if (event.type !== 'command' || event.state === CommandState.SENT) return;
    const waiter = this.waiters.get(event.id);
    if (waiter) {
      this.waiters.delete(event.id);
      void this.d.database.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.id, event.id))
        .then(([row]) => waiter.resolve(outcomeOf(row)))
        .catch(() =>
          waiter.resolve({
            id: event.id,
            sn: event.sn,
            name: event.name as CommandName,
            state: event.state,
            code: event.code ?? 0,
            message: event.message,
            data: null,
          }),
        );
    }
    for (const wake of [...(this.freed.get(event.sn) ?? [])]) wake();
  }

  // ── desired configuration (invariant 3) ────────────────────────────────────

  /**
   * An apply-config outcome: the device runs the revision (applied) or refused it (failed, its
   * code; it waits for the administrator). A push that reached no decision — a timeout, the device
   * busy or away — stays pending and is due again after a growing delay (config/convergence.ts).
   */
  private async configOutcome(tx: DbOrTx, row: CommandRow): Promise<void> {
    const revision = (row.params as { revision?: number }).revision;
    if (revision === undefined) return;
    const now = this.d.now();
    const retry = row.state === CommandState.TIMEOUT || RETRYABLE_CONFIG_CODES.has(row.code ?? 0);
    const set = retry
      ? {
          configRetryAt: sql`${now.toISOString()}::timestamptz + make_interval(secs => least(${this.d.config.configRetryBaseMs / 1000} * power(2, greatest(${devices.configAttempts}, 1) - 1), 3600))`,
        }
      : row.state === CommandState.SUCCESS
        ? {
            configStatus: DeviceConfigState.APPLIED,
            configCode: null,
            configAttempts: 0,
            configRetryAt: null,
          }
        : { configStatus: DeviceConfigState.FAILED, configCode: row.code, configRetryAt: null };
    const [still] = await tx
      .update(devices)
      .set({ ...set, updatedAt: now })
      .where(and(eq(devices.sn, row.sn), eq(devices.desiredRevision, revision)))
      .returning({ desiredHash: devices.desiredHash });
    if (still && row.state === CommandState.SUCCESS && !retry) {
      // The device runs what it acknowledged: its reported side (device_state) says so too.
      await tx
        .update(deviceState)
        .set({ reportedRevision: revision, reportedHash: still.desiredHash })
        .where(eq(deviceState.sn, row.sn));
    }
  }

  /**
   * Commits a new desired revision (config/repository.ts: a revision row, sealed secrets, status
   * pending) in its own transaction — or in the scope's, so the caller's audit row goes with it —
   * and then pushes it when the device is online. An offline device gets it when it is back (its
   * hello, or the convergence job). Resolves with the new revision and, when pushed, the outcome of
   * the apply-config command.
   */
  async setDesiredConfig(
    sn: string,
    document: DeviceConfigInput,
    actor: CommandActor,
    options: { scope?: CommandScope; reason?: string; expectedRevision?: number } = {},
  ): Promise<{ revision: number; outcome: CommandOutcome | null }> {
    // From the commit until this push has its outcome, a re-send of the same revision (after a state
    // of the device, converge) waits for it rather than sending the revision a second time.
    this.pushing.set(sn, (this.pushing.get(sn) ?? 0) + 1);
    try {
      const row = await this.transaction(options.scope)(async (tx, recorded) => {
        const { device } = await commitDeviceRevision(tx, this.d.secrets, {
          sn,
          projectId: options.scope?.projectId,
          document: document as Record<string, unknown>,
          author: actor,
          reason: options.reason,
          expectedRevision: options.expectedRevision,
          now: this.d.now(),
        });
        recorded([{ sn, commandId: null, state: null, code: null, revision: device.desiredRevision }]);
        return device;
      });
      const outcome = isOfflineStatus(row.status) ? null : await this.pushConfig(row, actor);
      return { revision: row.desiredRevision, outcome };
    } finally {
      const left = (this.pushing.get(sn) ?? 1) - 1;
      if (left > 0) this.pushing.set(sn, left);
      else this.pushing.delete(sn);
    }
  }

  /** The apply-config parameters of the stored desired configuration (secrets opened for the device). */
  private applyParams(row: Pick<DeviceRow, 'desiredRevision' | 'desiredConfig'>) {
    const parsed = COMMAND_PARAMS['apply-config'].safeParse({
      revision: row.desiredRevision,
      document: this.d.secrets.openDocument(row.desiredConfig),
    });
    if (!parsed.success) throw new Error(parsed.error.message);
    return parsed.data;
  }

  /** Sends the stored desired configuration when the device runs another one. */
  async pushConfig(row: DeviceRow, actor: CommandActor = SYSTEM_ACTOR): Promise<CommandOutcome | null> {
    if (row.desiredRevision === 0 || row.desiredConfig == null) return null;
    if (!runsOtherConfig(row)) return null;
    const params = this.applyParams(row);
    return this.send(row.sn, 'apply-config', params as CommandParamsInput<'apply-config'>, actor);
  }

  /** After a hello: re-send a pending configuration (a failed one waits for the administrator). */
  async afterHello(row: DeviceRow): Promise<void> {
    if (this.closed || row.configStatus !== DeviceConfigState.PENDING) return;
    this.converge(row.sn);
  }

  /**
   * After a state: an idle, online device that runs another configuration than the pending one
   * gets it again. Its hello may never have reached this server (sent while the server's link was
   * away), and its state — retained by the broker — is then the first the server hears of it.
   */
  async afterState(row: DeviceRow): Promise<void> {
    if (this.closed || row.configStatus !== DeviceConfigState.PENDING) return;
    if (!canTakeConfig(row)) return;
    if (!runsOtherConfig(row)) return;
    this.converge(row.sn);
  }

  /**
   * Re-sends the device's pending configuration, once at a time per device on this instance: after
   * the command the device is busy with (a push of setDesiredConfig included) has ended, and only
   * if the device then still needs that revision (stillPending, checked under the device row's lock
   * when the command is claimed — which is what keeps several instances from sending it twice).
   * Called after a hello or state, and by the convergence job for devices due for another try.
   */
  converge(sn: string): void {
    if (this.closed || this.resending.has(sn)) return;
    this.resending.add(sn);
    void (async () => {
      while (!this.closed) {
        if (this.pushing.has(sn)) {
          await this.waitFree(sn, 500);
          continue;
        }
        const [row] = await selectDevices(this.d.database.db).where(eq(devices.sn, sn));
        if (!row || row.desiredConfig == null || !stillPending(row.desiredRevision)(row)) return;
        const outcome = await this.run(
          sn,
          'apply-config',
          this.applyParams(row),
          SYSTEM_ACTOR,
          this.timeoutFor('apply-config'),
          stillPending(row.desiredRevision),
        );
        // Skipped: the row changed since it was read (a newer revision, say); look again.
        if (outcome) return;
      }
    })()
      .catch((err) => {
        if (!this.closed) {
          this.d.log.warn({ err: (err as Error).message, sn }, 'configuration re-send failed');
        }
      })
      .finally(() => this.resending.delete(sn));
  }
}
