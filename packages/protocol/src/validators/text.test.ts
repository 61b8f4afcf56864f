import { describe, expect, it } from 'vitest';
import { findNul, validateNoNul } from './text.ts';

describe('findNul', () => {
  it.each([
    ['plain', null],
    ['a\u0000b', []],
    [{ name: 'ok', tags: ['x', 'y\u0000'] }, ['tags', 1]],
    [{ nested: { deep: [{ v: '\u0000' }] } }, ['nested', 'deep', 0, 'v']],
    [{ 'key\u0000': 1 }, ['key\u0000']],
    [[1, true, null, 'ok'], null],
  ])('%j → %j', (value, path) => expect(findNul(value)).toEqual(path));
});

describe('findNul on deep input', () => {
  it('walks 100,000 levels without running out of stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep)).toHaveLength(100_000);
  });
});

describe('validateNoNul', () => {
  it('answers 16 naming the field', () => {
    expect(validateNoNul({ name: 'a\u0000' })).toMatchObject({
      code: 16,
      fields: { name: expect.any(String) },
    });
    expect(validateNoNul({ name: 'a' })).toBeNull();
  });
});
