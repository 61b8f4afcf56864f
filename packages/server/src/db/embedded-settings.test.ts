import { describe, expect, it } from 'vitest';
import { defaultSettings, settingFlags } from './embedded.ts';

describe('EMBEDDED_PG_SETTINGS', () => {
  it('turns name=value pairs into -c flags, and nothing into none', () => {
    expect(settingFlags(undefined)).toEqual([]);
    expect(settingFlags(' ')).toEqual([]);
    expect(settingFlags('shared_buffers=512MB, pg_stat_statements.track=all')).toEqual([
      '-c',
      'shared_buffers=512MB',
      '-c',
      'pg_stat_statements.track=all',
    ]);
  });

  it('refuses anything that is not name=value (no spaces, no second =, no option of its own)', () => {
    for (const bad of [
      'shared_buffers',
      '=1',
      'a=b=c',
      'a=b c',
      '-D=/tmp',
      'work_mem=\u0000',
      'work_mem= 1',
    ]) {
      expect(() => settingFlags(bad), bad).toThrow(/EMBEDDED_PG_SETTINGS/);
    }
  });

  it('sizes shared buffers to a sixteenth of the memory, 128 MB to 1 GB, and checkpoints less often', () => {
    const GB = 2 ** 30;
    expect(defaultSettings(24 * GB)).toEqual([
      '-c',
      'shared_buffers=1024MB',
      '-c',
      'max_wal_size=4GB',
      '-c',
      'checkpoint_timeout=15min',
    ]);
    expect(defaultSettings(8 * GB)[1]).toBe('shared_buffers=512MB');
    expect(defaultSettings(1 * GB)[1]).toBe('shared_buffers=128MB');
  });

  it('leaves out a default the operator set', () => {
    const given = settingFlags('shared_buffers=256MB,work_mem=16MB');
    expect(defaultSettings(24 * 2 ** 30, given)).toEqual([
      '-c',
      'max_wal_size=4GB',
      '-c',
      'checkpoint_timeout=15min',
    ]);
  });
});
