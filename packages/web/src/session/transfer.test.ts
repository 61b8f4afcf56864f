import { ALL_MENU_FLAGS } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { readTransferParams, transferTarget } from './transfer.ts';

describe('openapi transfer', () => {
  it('reads token, project and page', () => {
    expect(readTransferParams('?token=abc&project=500000&page=/manage/runlog')).toEqual({
      token: 'abc',
      projectId: 500000,
      page: '/manage/runlog',
    });
    expect(readTransferParams('?project=x')).toEqual({ token: null, projectId: null, page: null });
  });

  it('lands on the requested page when allowed, else per landingPath', () => {
    const ctx = { access: 'openapi' as const, netMode: 0 as const, flags: ALL_MENU_FLAGS };
    expect(transferTarget('/manage/runlog', ctx)).toBe('/manage/runlog');
    expect(transferTarget('manage/runlog', ctx)).toBe('/manage/runlog');
    expect(transferTarget('/manage/wirelessconf', ctx)).toBe('/manage/status');
    expect(transferTarget(null, ctx)).toBe('/manage/status');
    expect(transferTarget(null, { ...ctx, flags: { ...ALL_MENU_FLAGS, network: false } })).toBe(
      '/manage/devconf',
    );
  });
});
