import { describe, expect, it } from 'vitest';
import { settingFlags } from './embedded.ts';

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
});
