import { blockReason, type DeviceFacts } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import {
  BULK_SPECS,
  bulkSpec,
  countReasons,
  partitionSelection,
  rememberRows,
  resolveSelection,
  scheduleParams,
  summarizeResults,
  upgradeChoice,
} from './rules.ts';

const ap = (sn: string, over: Partial<DeviceFacts> = {}): DeviceFacts => ({
  sn,
  model: 'BA-W1200C',
  status: 1,
  operation: null,
  managementMode: 1,
  firmware: '4.2.0',
  ...over,
});

describe('blockReason', () => {
  it('allows an online cloud device', () => {
    expect(blockReason('reboot', ap('A'), { writable: true, capability: 'reboot' })).toBeNull();
  });

  it('checks access, model, offline, local management and busy, in that order', () => {
    expect(blockReason('reboot', ap('A', { status: 0 }), { writable: false })).toBe('readOnly');
    expect(blockReason('poe-reboot', ap('A'), { writable: true, capability: 'poe' })).toBe('model');
    expect(blockReason('reboot', ap('A', { status: 9 }), { writable: true })).toBe('offline');
    expect(blockReason('led', ap('A', { managementMode: 0 }), { writable: true })).toBe('local');
    expect(blockReason('reboot', ap('A', { status: 8 }), { writable: true })).toBe('busy');
    expect(blockReason('upgrade', ap('A', { status: 3 }), { writable: true })).toBe('busy');
    expect(blockReason('reset', ap('A', { operation: 'apply-config' }), { writable: true })).toBe('busy');
  });

  it('lets a schedule be set while offline and reboot/locate while in local management', () => {
    expect(blockReason('reboot-schedule', ap('A', { status: 0 }), { writable: true })).toBeNull();
    expect(blockReason('reboot', ap('A', { managementMode: 0 }), { writable: true })).toBeNull();
    expect(blockReason('locate', ap('A', { managementMode: 0 }), { writable: true })).toBeNull();
  });

  it('a busy device still takes actions that do not restart it', () => {
    expect(blockReason('locate', ap('A', { status: 8 }), { writable: true })).toBeNull();
  });

  it('uses the device capabilities for a model outside the catalogue', () => {
    const odd = ap('A', { model: 'X-UNKNOWN', capabilities: ['reboot'] });
    expect(blockReason('reboot', odd, { writable: true, capability: 'reboot' })).toBeNull();
    expect(blockReason('led', odd, { writable: true, capability: 'led' })).toBe('model');
  });
});

describe('bulk selection', () => {
  it('offers one entry per bulk action, each with a capability', () => {
    expect(BULK_SPECS.map((s) => s.key)).toEqual([
      'reboot',
      'upgrade',
      'locate',
      'led-on',
      'led-off',
      'reboot-schedule',
      'local-management-on',
      'local-management-off',
      'reset',
    ]);
    expect(bulkSpec('led-off').params).toEqual({ on: false });
    expect(() => bulkSpec('nope')).toThrow();
  });

  it('splits the selection into ready and refused devices and counts the reasons', () => {
    const devices = [ap('A'), ap('B', { status: 0 }), ap('C', { status: 8 }), ap('D', { status: 0 })];
    const { ready, refused } = partitionSelection(bulkSpec('reboot'), devices, true);
    expect(ready.map((d) => d.sn)).toEqual(['A']);
    expect(refused.map((r) => [r.device.sn, r.reason])).toEqual([
      ['B', 'offline'],
      ['C', 'busy'],
      ['D', 'offline'],
    ]);
    expect(countReasons(refused)).toEqual([
      { reason: 'offline', count: 2 },
      { reason: 'busy', count: 1 },
    ]);
  });

  it('refuses everything on a read-only project', () => {
    const { ready, refused } = partitionSelection(bulkSpec('locate'), [ap('A'), ap('B')], false);
    expect(ready).toEqual([]);
    expect(countReasons(refused)).toEqual([{ reason: 'readOnly', count: 2 }]);
  });
});

describe('upgradeChoice', () => {
  it('needs one model and offers versions newer than the oldest running, newest first', () => {
    expect(upgradeChoice([ap('A'), ap('B', { firmware: '4.3.1' })])).toEqual({
      ok: true,
      model: 'BA-W1200C',
      versions: ['4.4.0', '4.3.1'],
    });
    expect(upgradeChoice([ap('A'), ap('B', { model: 'BA-W3000X' })])).toEqual({
      ok: false,
      reason: 'mixedModels',
    });
    expect(upgradeChoice([ap('A', { firmware: '4.4.0' })])).toEqual({ ok: false, reason: 'upToDate' });
    expect(upgradeChoice([])).toEqual({ ok: false, reason: 'none' });
  });
});

describe('summarizeResults', () => {
  it('counts successes and groups failures by code, most first', () => {
    const summary = summarizeResults([
      { sn: 'A', code: 0, message: null },
      { sn: 'B', code: 36, message: 'Device offline' },
      { sn: 'C', code: 71, message: 'Device busy' },
      { sn: 'D', code: 36, message: 'Device offline' },
      { sn: 'E', code: 0, message: null },
    ]);
    expect(summary).toEqual({
      succeeded: 2,
      failed: 3,
      failures: [
        { code: 36, message: 'Device offline', count: 2 },
        { code: 71, message: 'Device busy', count: 1 },
      ],
    });
  });

  it('an empty answer is neither', () => {
    expect(summarizeResults([])).toEqual({ succeeded: 0, failed: 0, failures: [] });
  });
});

describe('selection across pages', () => {
  it('keeps devices seen on other pages and prefers fresh rows', () => {
    const known = rememberRows(new Map(), ['A', 'B'], [ap('A'), ap('B')]);
    // Page 2: B is not on it; C is selected there.
    const next = rememberRows(known, ['A', 'B', 'C'], [ap('C')]);
    expect([...next.keys()].sort()).toEqual(['A', 'B', 'C']);
    const fresh = [ap('A', { status: 8 })];
    const resolved = resolveSelection(['A', 'B', 'C', 'Z'], fresh, next);
    expect(resolved.map((d) => [d.sn, d.status])).toEqual([
      ['A', 8],
      ['B', 1],
      ['C', 1],
    ]);
  });

  it('forgets deselected devices', () => {
    const known = rememberRows(new Map(), ['A', 'B'], [ap('A'), ap('B')]);
    expect([...rememberRows(known, ['B'], []).keys()]).toEqual(['B']);
  });
});

describe('scheduleParams', () => {
  it('turns the form into the action parameters', () => {
    expect(scheduleParams({ enabled: false, days: [1], time: '03:00' })).toEqual({ enabled: false });
    expect(scheduleParams({ enabled: true, days: [1, 3], time: '04:30' })).toEqual({
      days: [1, 3],
      time: '04:30',
    });
    expect(scheduleParams({ time: '03:00' })).toEqual({ days: [], time: '03:00' });
  });
});
