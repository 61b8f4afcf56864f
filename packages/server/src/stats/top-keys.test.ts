import { describe, expect, it } from 'vitest';
import { topKeys } from './top-keys.ts';

describe('topKeys', () => {
  it('keeps every key when there are no more than max', () => {
    expect(
      topKeys(
        new Map([
          ['b', 1],
          ['a', 2],
        ]),
        2,
      ),
    ).toEqual(new Set(['a', 'b']));
  });

  it('keeps the largest totals, ties broken by key', () => {
    const totals = new Map([
      ['c', 5],
      ['a', 1],
      ['d', 5],
      ['b', 9],
      ['e', 1],
    ]);
    expect([...topKeys(totals, 3)].sort()).toEqual(['b', 'c', 'd']);
    expect([...topKeys(totals, 4)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(topKeys(totals, 0).size).toBe(0);
  });
});
