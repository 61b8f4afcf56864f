import { describe, expect, it } from 'vitest';
import { textArray } from './text-array.ts';

describe('textArray', () => {
  it('quotes every element so that commas, braces, quotes, backslashes and NULL stay text', () => {
    expect(textArray([])).toBe('{}');
    expect(textArray(['A1', 'b,c'])).toBe('{"A1","b,c"}');
    expect(textArray(['{x}', 'say "hi"', 'back\\slash', 'NULL', ''])).toBe(
      '{"{x}","say \\"hi\\"","back\\\\slash","NULL",""}',
    );
  });
});
