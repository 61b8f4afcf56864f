import { randomBytes } from 'node:crypto';
import { type ActionResultView, type CommandName, CommandState, redactSecrets } from '@beacon/protocol';
import { deviceCommands } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { publishEvents } from '../events/bus.ts';
import { insertRows } from '../gateway/batch.ts';
import { COMMAND_COLUMNS, type CommandActor, type CommandScope } from '../gateway/commands.ts';

/** Server-side refusals, recorded like device outcomes (one failed command each) with their audit rows. */
export async function recordRefusals(
  deps: Deps,
  scope: CommandScope,
  name: CommandName,
  params: Record<string, unknown>,
  actor: CommandActor,
  refused: { sn: string; result: ActionResultView }[],
): Promise<void> {
  const projectId = scope.projectId!;
  const stored = redactSecrets(params);
  for (let i = 0; i < refused.length; i += 500) {
    await scope.transaction(async (tx, recorded) => {
      const now = deps.now();
      const values = refused.slice(i, i + 500).map(({ sn, result }) => {
        const id = `srv-${randomBytes(12).toString('hex')}`;
        result.commandId = id;
        return {
          id,
          sn,
          projectId,
          name,
          params: stored,
          state: CommandState.FAILED,
          code: result.code,
          message: result.message,
          data: null,
          accountId: actor.accountId,
          accountName: actor.account,
          createdAt: now,
          expiresAt: now,
          finishedAt: now,
        };
      });
      await insertRows(tx, deviceCommands, COMMAND_COLUMNS, values);
      await publishEvents(
        tx,
        values.map((v) => ({
          type: 'command' as const,
          projectId,
          sn: v.sn,
          id: v.id,
          name,
          state: CommandState.FAILED,
          code: v.code,
          message: v.message,
          at: now.toISOString(),
        })),
      );
      recorded(values.map((v) => ({ sn: v.sn, commandId: v.id, state: v.state, code: v.code })));
    });
  }
}
