import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './redact.ts';

describe('redactSecrets', () => {
  it('masks secrets at any depth and keeps an empty one empty', () => {
    const doc = {
      name: 'ap',
      wan: { type: 'pppoe', username: 'u', password: 'p4ss' },
      wifi: [
        { ssid: 'x', password: '' },
        { ssid: 'y', password: 'k3y-k3y-k3y', radius: { password: 'r' } },
      ],
    };
    expect(redactSecrets(doc)).toEqual({
      name: 'ap',
      wan: { type: 'pppoe', username: 'u', password: REDACTED },
      wifi: [
        { ssid: 'x', password: '' },
        { ssid: 'y', password: REDACTED, radius: { password: REDACTED } },
      ],
    });
    expect(doc.wan.password).toBe('p4ss');
  });

  it('drops them when asked', () => {
    expect(redactSecrets({ url: 'u', token: 't', deviceToken: 'd' }, { drop: true })).toEqual({ url: 'u' });
  });
});
