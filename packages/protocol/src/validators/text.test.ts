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

describe('validateNoNul', () => {
  it('answers 16 naming the field', () => {
    expect(validateNoNul({ name: 'a\u0000' })).toMatchObject({
      code: 16,
      fields: { name: expect.any(String) },
    });
    expect(validateNoNul({ name: 'a' })).toBeNull();
  });
});
