import { describe, expect, it } from 'vitest';
import { shouldDisplaceRemoteSession } from '../src/sharing/rules.ts';

describe('shouldDisplaceRemoteSession (SPEC.md §6; awaits the devices domain)', () => {
  const owner = { accountId: 1, isOwner: true };
  const service = { accountId: 2, isOwner: false };
  const colleague = { accountId: 3, isOwner: false };

  it.each([
    ['the owner visits while a service person holds it', service, owner, true],
    ['a service person visits while the owner holds it', owner, service, false],
    ['another service person visits', service, colleague, false],
    ['the holder opens it again', service, service, false],
    ['the owner, holding it, opens it again', owner, owner, false],
    ['nobody holds it', null, owner, false],
  ] as const)('%s → %s', (_label, holder, visitor, expected) => {
    expect(shouldDisplaceRemoteSession(holder, visitor)).toBe(expected);
  });
});
