import { randomUUID } from 'node:crypto';
import {
  AppError,
  COMMAND_EXPIRED,
  COMMAND_PARAMS,
  Codes,
  type CommandName,
  type CommandParamsInput,
  CommandState,
  downTopic,
  errorMessage,
  LIMITS,
  makeCommand,
  parseOrThrow,
  type Reply,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deviceCommands } from '../db/schema.ts';
import type { BusEvent, EventBus } from '../events/bus.ts';
import type { Secrets } from '../security/secrets.ts';
import { Batcher, withRetry } from './batch.ts';
import { claimMany, claimOne } from './command-claims.ts';
import {
  endExpiredCommands,
  type OutcomeClock,
  writeOutcome,
  writeOutcomes,
} from './command-outcome-store.ts';
import {
  type ClaimedDevice,
  type CommandActor,
  type CommandOutcome,
  type CommandRow,
  type CommandScope,
  type OutcomeItem,
  outcomeOf,
  type SendOptions,
  type Waiter,
} from './command-rows.ts';

/** A device's commands are claimed this many at a time by sendToMany (one transaction each). */
const CLAIM_CHUNK = 500;
/** How many of those transactions run at once. */
const CLAIM_CONCURRENCY = 3;

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
  /** Counts the outcomes this instance records (src/metrics/). */
  metrics?: { commandOutcomes(rows: readonly { name: string; state: string }[]): void };
}

/**
 * Sending commands and recording their one outcome each; CommandService (commands.ts) adds the
 * desired configuration on top.
 */
export class CommandDispatcher {
  private readonly waiters = new Map<string, Waiter>();
  /** Replies and timeouts are recorded many at a time (batch.ts, recordMany). */
  private readonly outcomes = new Batcher<OutcomeItem, CommandRow | null>((items) => this.recordMany(items));
  /**
   * Commands this instance is writing outcomes for (recordMany), by id → how many writes: their
   * waiters get the written rows, so the `command` event each write echoes back through NOTIFY —
   * which may arrive before the write's own commit answer — needs no read of its own (a bulk action
   * of 10,000 made 10,000 such reads). Echoes that arrive meanwhile wait in `echoes` and are used
   * only if the write did not settle the waiter (another instance recorded first).
   */
  private readonly recording = new Map<string, number>();
  private readonly echoes = new Map<string, BusEvent>();
  /** Local wake-ups for commands waiting for their device to be free. */
  private readonly freed = new Map<string, Set<() => void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;
  protected closed = false;
  /** The server is shutting down (stopIntake): the link may already be gone. */
  private quiescing = false;

  /** What writing an outcome needs of the deps (command-outcome-store.ts). */
  private get clock(): OutcomeClock {
    return { now: () => this.d.now(), configRetryBaseMs: this.d.config.configRetryBaseMs };
  }

  constructor(protected readonly d: CommandServiceDeps) {
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
  /**
   * First step of a shutdown, before the link leaves: a command that can no longer be published is
   * expected then (it ends at close(); the convergence job re-sends configurations after a restart).
   */
  quiesce(): void {
    this.quiescing = true;
  }

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
            ? this.openOutcome(outcomeOf(row))
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

  protected timeoutFor(name: CommandName, options?: SendOptions): number {
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
    const checked = parseOrThrow(COMMAND_PARAMS[name], params);
    if (this.closed) throw new AppError(Codes.SERVER, 'The server is shutting down');
    return (await this.run(
      sn,
      name,
      checked,
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
  protected async run(
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
      const claim = await claimOne(
        this.transaction(scope),
        this.d.now(),
        sn,
        id,
        name,
        params,
        actor,
        timeoutMs,
        giveUpAt,
        onlyIf,
        scope?.projectId,
      );
      if (claim.kind === 'skipped') return null;
      if (claim.kind === 'done') {
        this.d.metrics?.commandOutcomes([claim.outcome]);
        return claim.outcome;
      }
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
      const fields = { err: (err as Error).message, sn, id };
      if (this.quiescing) this.d.log.debug(fields, 'command not published: the server is shutting down');
      else this.d.log.warn(fields, 'command publish failed; it will time out');
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
        .catch((err) => {
          // The database is away (an outage): the caller still gets its answer now, never a hang.
          // The row stays `sent` past its deadline, and the sweeper records the same timeout once
          // the database is back (decision 0066).
          this.d.log.error({ err, id }, 'recording a command timeout failed; the sweeper will record it');
          const waiter = this.waiters.get(id);
          if (!waiter) return;
          this.waiters.delete(id);
          waiter.resolve({
            id,
            sn,
            name,
            state: CommandState.TIMEOUT,
            code: COMMAND_EXPIRED,
            message: 'No reply from the device in time',
            data: null,
          });
        });
    }, timeoutMs);
    this.timers.add(timer);
    const result = await outcome;
    clearTimeout(timer);
    this.timers.delete(timer);
    return result;
  }

  /**
   * The same command to many devices at once, one outcome per device (in the order given). The
   * claims are made 500 devices at a time, each chunk in one transaction (claimMany), three chunks at
   * once; a device busy with another command, or named twice, goes the way of send() and waits its
   * turn.
   */
  async sendToMany<N extends CommandName>(
    sns: readonly string[],
    name: N,
    params: CommandParamsInput<N>,
    actor: CommandActor,
    options?: SendOptions,
  ): Promise<CommandOutcome[]> {
    const checked = parseOrThrow(COMMAND_PARAMS[name], params);
    if (this.closed) throw new AppError(Codes.SERVER, 'The server is shutting down');
    const timeoutMs = this.timeoutFor(name, options);
    const chunks: string[][] = [];
    for (let i = 0; i < sns.length; i += CLAIM_CHUNK) chunks.push(sns.slice(i, i + CLAIM_CHUNK));
    // A device named twice is claimed once; its other mentions wait their turn through send().
    const seen = new Set<string>();
    const fresh = chunks.map((chunk) => chunk.filter((sn) => !seen.has(sn) && seen.add(sn)));
    const outcomes: Promise<CommandOutcome>[][] = chunks.map(() => []);
    // A few chunks are claimed at once: their devices are disjoint (no lock waits between them), and
    // a chunk's commands go out as soon as its own claim commits.
    let next = 0;
    let failed = false;
    const claimChunks = async () => {
      while (!failed && next < chunks.length) {
        const c = next++;
        try {
          // A deadlock rolls the chunk back whole, so it is safe to run again (batch.ts withRetry).
          const claims = await withRetry(() =>
            claimMany(
              this.transaction(options?.scope),
              this.d.now(),
              fresh[c],
              name,
              checked,
              actor,
              timeoutMs,
              options?.scope?.projectId,
            ),
          );
          const taken = new Set<string>();
          for (const sn of chunks[c]) {
            const claim = claims.get(sn);
            if (!claim || claim.kind === 'busy' || taken.has(sn)) {
              outcomes[c].push(this.send(sn, name, params, actor, options));
              continue;
            }
            taken.add(sn);
            if (claim.kind === 'done') {
              this.d.metrics?.commandOutcomes([claim.outcome]);
              outcomes[c].push(Promise.resolve(claim.outcome));
            } else outcomes[c].push(this.dispatch(sn, claim.id, name, checked, timeoutMs));
          }
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CLAIM_CONCURRENCY, chunks.length) }, claimChunks));
    return Promise.all(outcomes.flat());
  }

  /** The claim's transaction: the scope's (an action's write), or one of its own. */
  protected transaction(scope: CommandScope | undefined): CommandScope['transaction'] {
    return scope
      ? (body) => scope.transaction(body)
      : (body) => this.d.database.db.transaction((tx) => body(tx, () => {}));
  }

  protected waitFree(sn: string, ms: number): Promise<void> {
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
      const row = await writeOutcome(this.d.database, this.clock, { id, sn, state, code, message, data });
      if (row) this.d.metrics?.commandOutcomes([row]);
      return row;
    } catch (err) {
      this.d.log.error({ err, id }, 'recording a command outcome failed');
      return null;
    }
  }

  /** The outcome with the secrets its stored reply holds sealed opened again, for its waiter only. */
  private openOutcome(outcome: CommandOutcome): CommandOutcome {
    return outcome.data ? { ...outcome, data: this.d.secrets.openDocument(outcome.data) } : outcome;
  }

  /** A device's reply (from ingest). */
  async onReply(sn: string, reply: Reply): Promise<void> {
    const state = reply.code === 0 ? CommandState.SUCCESS : CommandState.FAILED;
    const message = reply.message ?? (reply.code === 0 ? null : errorMessage(reply.code));
    // What a device answers may carry its secrets (get-config: the admin password): stored sealed,
    // like a configuration revision, and opened only for the command's waiter (openOutcome).
    const data = reply.data ? this.d.secrets.sealDocument(reply.data) : null;
    await this.outcomes.add({ id: reply.id, sn, state, code: reply.code, message, data });
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
    for (const id of first.keys()) this.recording.set(id, (this.recording.get(id) ?? 0) + 1);
    try {
      const written = await writeOutcomes(this.d.database, this.clock, [...first.values()]);
      this.d.metrics?.commandOutcomes(written);
      const byId = new Map(written.map((row) => [row.id, row]));
      for (const row of written) {
        const waiter = this.waiters.get(row.id);
        if (waiter) {
          this.waiters.delete(row.id);
          waiter.resolve(this.openOutcome(outcomeOf(row)));
        }
      }
      return items.map((item) => (first.get(item.id) === item ? (byId.get(item.id) ?? null) : null));
    } finally {
      for (const id of first.keys()) {
        const left = (this.recording.get(id) ?? 1) - 1;
        if (left > 0) continue;
        this.recording.delete(id);
        const echo = this.echoes.get(id);
        if (echo) {
          this.echoes.delete(id);
          this.onEvent(echo);
        }
      }
    }
  }

  /** Ends every `sent` command past its deadline (its sender may have stopped). */
  async sweep(): Promise<number> {
    const rows = await endExpiredCommands(this.d.database, this.d.now());
    this.d.metrics?.commandOutcomes(rows);
    return rows.length;
  }

  private onEvent(event: BusEvent): void {
    if (event.type !== 'command' || event.state === CommandState.SENT) return;
    const waiter = this.waiters.get(event.id);
    if (waiter && this.recording.has(event.id)) {
      // This instance is writing the outcome: recordMany settles the waiter (or replays this event).
      this.echoes.set(event.id, event);
    } else if (waiter) {
      this.waiters.delete(event.id);
      void this.d.database.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.id, event.id))
        .then(([row]) => waiter.resolve(this.openOutcome(outcomeOf(row))))
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
}
