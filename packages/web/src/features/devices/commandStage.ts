import type { ActionResultView, CommandView } from '@beacon/protocol';

/** What a result tag needs of a command. */
export type ShownCommand = Pick<CommandView, 'name' | 'state' | 'code' | 'message' | 'final'>;

export type CommandStage = 'sent' | 'failed' | 'success' | 'accepted' | 'done';

/**
 * Which stage a command is at for the user: its reply, then (for reboot, reset, upgrade) its final
 * outcome. A device's 0 to a followed command is "accepted", never "success".
 */
export function commandStage(c: ShownCommand): CommandStage {
  if (c.state === 'sent') return 'sent';
  if (c.state !== 'success') return 'failed';
  if (!c.final) return 'success';
  if (c.final.state === 'pending') return 'accepted';
  return c.final.state === 'done' ? 'done' : 'failed';
}

/**
 * One row of a bulk action's results as a command: the command as last read when there is one;
 * before that, an accepted followed action reads as pending, anything else as its result code.
 */
export function shownResult(
  result: ActionResultView,
  action: string,
  followed: boolean,
  command: CommandView | undefined,
): ShownCommand {
  if (command) return command;
  if (followed && result.code === 0) {
    return {
      name: action,
      state: 'success',
      code: 0,
      message: null,
      final: { state: 'pending', code: null, message: null, at: null },
    };
  }
  return {
    name: action,
    state: result.code === 0 ? 'success' : 'failed',
    code: result.code,
    message: result.message,
    final: null,
  };
}

/** The bulk dialog's counts while it follows accepted commands to their final outcomes. */
export function countStages(stages: readonly CommandStage[]): {
  done: number;
  pending: number;
  failed: number;
} {
  return {
    done: stages.filter((s) => s === 'done').length,
    pending: stages.filter((s) => s === 'accepted' || s === 'sent').length,
    failed: stages.filter((s) => s === 'failed').length,
  };
}
