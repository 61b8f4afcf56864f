import { randomUUID } from 'node:crypto';
import {
  COMMAND_EXPIRED,
  type CommandName,
  CommandState,
  errorMessage,
  redactSecrets,
} from '@beacon/protocol';
import { and, asc, eq, gt } from 'drizzle-orm';
import { deviceCommands, deviceState, devices } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { publishEvent, publishEvents } from '../events/bus.ts';
import { insertRows } from './batch.ts';
import {
  type ClaimedDevice,
  COMMAND_COLUMNS,
  type CommandActor,
  type CommandOutcome,
  type CommandRow,
  type CommandScope,
  commandEvent,
  immediateCode,
  outcomeOf,
  recordOf,
} from './command-rows.ts';
import { NO_FINAL_OUTCOME } from './outcomes.ts';

// Claiming a device for a command (one at a time per device, invariant 4), in the transaction given.

/**
 * claim() for many devices in one transaction: the device rows locked in SN order (as the ingest
 * batches lock them), the open commands of all of them in one query, the command rows in one
 * multi-row INSERT and their events in one statement. Same rules as claim(): unknown 410,
 * offline 36, another command open = busy (the caller waits), else the command row is the claim.
 */
export async function claimMany(
  transaction: CommandScope['transaction'],
  now: Date,
  sns: string[],
  name: CommandName,
  params: unknown,
  actor: CommandActor,
  timeoutMs: number,
  projectId?: number,
): Promise<
  Map<string, { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed'; id: string } | { kind: 'busy' }>
> {
  const claims = new Map<
    string,
    { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed'; id: string } | { kind: 'busy' }
  >();
  if (sns.length === 0) return claims;
  const expiresAt = new Date(now.getTime() + timeoutMs);
  return transaction(async (tx, recorded) => {
    const found = await tx
      .select({
        sn: devices.sn,
        projectId: devices.projectId,
        status: deviceState.status,
        operation: deviceState.operation,
      })
      .from(devices)
      .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
      .where(inTexts(devices.sn, sns))
      .orderBy(asc(devices.sn))
      // No key update: never changes an SN, so telemetry's foreign-key checks pass (gateway/ingest.ts lockDevices).
      .for('no key update', { of: devices });
    const bySn = new Map(found.map((d) => [d.sn, d]));
    const open = await tx
      .select({ sn: deviceCommands.sn })
      .from(deviceCommands)
      .where(
        and(
          inTexts(deviceCommands.sn, sns),
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
      const code = immediateCode(device, projectId);
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
export async function claimOne(
  transaction: CommandScope['transaction'],
  now: Date,
  sn: string,
  id: string,
  name: CommandName,
  params: unknown,
  actor: CommandActor,
  timeoutMs: number,
  giveUpAt: number,
  onlyIf?: (device: ClaimedDevice) => boolean,
  projectId?: number,
): Promise<
  { kind: 'done'; outcome: CommandOutcome } | { kind: 'claimed' } | { kind: 'busy' } | { kind: 'skipped' }
> {
  return transaction(async (tx, recorded) => {
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
      .for('no key update', { of: devices });
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
      await publishEvent(tx, commandEvent(row));
      recorded([recordOf(row)]);
      return { kind: 'done' as const, outcome: outcomeOf(row) };
    };
    const code = immediateCode(device, projectId);
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
        await publishEvent(tx, commandEvent(row));
        recorded([recordOf(row)]);
        return { kind: 'done' as const, outcome: outcomeOf(row) };
      }
      return { kind: 'busy' as const };
    }
    const [row] = await tx
      .insert(deviceCommands)
      .values({ ...base, state: CommandState.SENT })
      .returning();
    await publishEvent(tx, commandEvent(row));
    recorded([recordOf(row)]);
    return { kind: 'claimed' as const };
  });
}
