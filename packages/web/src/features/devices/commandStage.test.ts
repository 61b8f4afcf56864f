import type { CommandView } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { commandStage, countStages, shownResult } from './commandStage.ts';

const command = (over: Partial<CommandView>): CommandView => ({
  id: 'c1',
  sn: 'SN1',
  name: 'reboot',
  state: 'success',
  code: 0,
  message: null,
  data: null,
  account: 'a@example.com',
  createdAt: '2026-11-23T10:00:00Z',
  finishedAt: '2026-11-23T10:00:01Z',
  final: null,
  ...over,
});

describe('commandStage', () => {
  it('reads an accepted reboot as accepted until its final outcome, then done or failed', () => {
    const pending = { state: 'pending', code: null, message: null, at: null } as const;
    expect(commandStage(command({ final: pending }))).toBe('accepted');
    expect(commandStage(command({ final: { ...pending, state: 'done', code: 0 } }))).toBe('done');
    expect(commandStage(command({ final: { ...pending, state: 'failed', code: 5111 } }))).toBe('failed');
    expect(commandStage(command({ final: { ...pending, state: 'timeout', code: 5110 } }))).toBe('failed');
  });

  it('reads other commands by their reply', () => {
    expect(commandStage(command({ name: 'locate' }))).toBe('success');
    expect(commandStage(command({ state: 'sent', code: null }))).toBe('sent');
    expect(commandStage(command({ state: 'failed', code: 36 }))).toBe('failed');
    expect(commandStage(command({ state: 'timeout', code: 5025 }))).toBe('failed');
  });
});

describe('shownResult and countStages (bulk results)', () => {
  it('shows an accepted followed action as pending before its command is read', () => {
    const shown = shownResult(
      { sn: 'SN1', code: 0, message: null, commandId: 'c1', data: null },
      'reboot',
      true,
      undefined,
    );
    expect(commandStage(shown)).toBe('accepted');
    const refused = shownResult(
      { sn: 'SN2', code: 5046, message: 'busy', commandId: 'c2', data: null },
      'reboot',
      true,
      undefined,
    );
    expect(commandStage(refused)).toBe('failed');
    const other = shownResult(
      { sn: 'SN3', code: 0, message: null, commandId: 'c3', data: null },
      'locate',
      false,
      undefined,
    );
    expect(commandStage(other)).toBe('success');
  });

  it('prefers the command as last read', () => {
    const done = command({ final: { state: 'done', code: 0, message: null, at: '2026-11-23T10:01:00Z' } });
    expect(
      commandStage(
        shownResult({ sn: 'SN1', code: 0, message: null, commandId: 'c1', data: null }, 'reboot', true, done),
      ),
    ).toBe('done');
  });

  it('counts done, in progress and failed', () => {
    expect(countStages(['done', 'accepted', 'sent', 'failed', 'done'])).toEqual({
      done: 2,
      pending: 2,
      failed: 1,
    });
  });
});
