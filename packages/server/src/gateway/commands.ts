import {
  COMMAND_PARAMS,
  type CommandParamsInput,
  type DeviceConfigInput,
  DeviceConfigState,
  isOfflineStatus,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { commitDeviceRevision } from '../config/repository.ts';
import { devices } from '../db/schema.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { CommandDispatcher } from './command-dispatcher.ts';
import { type CommandActor, type CommandOutcome, type CommandScope, SYSTEM_ACTOR } from './command-rows.ts';
import { canTakeConfig, runsOtherConfig, stillPending } from './config-push-rules.ts';

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

export type { CommandServiceDeps } from './command-dispatcher.ts';
export * from './command-rows.ts';
export { configRetryDelayMs, runsOtherConfig } from './config-push-rules.ts';

export class CommandService extends CommandDispatcher {
  /** Devices a setDesiredConfig of this instance is pushing a revision to (how many at once). */
  private readonly pushing = new Map<string, number>();
  /** Devices this instance is re-sending a pending configuration to (one re-send at a time). */
  private readonly resending = new Set<string>();

  // ── desired configuration (invariant 3) ────────────────────────────────────

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
