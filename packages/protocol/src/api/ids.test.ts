import { describe, expect, it } from 'vitest';
import { ID_MAX, Id, IdParam } from './ids.ts';

describe('IdParam (paths and queries)', () => {
  it.each(['1', '42', String(ID_MAX)])('accepts %s', (v) => expect(IdParam.parse(v)).toBe(Number(v)));
  it.each(['0', '-1', '2147483648', '9223372036854775808', '1e3', 'abc', ' 7', '0x10', '07', '1.0', ''])(
    'refuses %j',
    (v) => expect(IdParam.safeParse(v).success).toBe(false),
  );
});

describe('Id (JSON bodies)', () => {
  it.each([0, -1, ID_MAX + 1, 2 ** 63, 1.5, '1'])('refuses %j', (v) =>
    expect(Id.safeParse(v).success).toBe(false),
  );
  it('accepts 1 and 2^31-1', () => {
    expect(Id.parse(1)).toBe(1);
    expect(Id.parse(ID_MAX)).toBe(ID_MAX);
  });
});
