import { describe, expect, it } from 'vitest';
import { mayBeLost, projectIdOf } from './projectLoss.ts';

describe('lost project detection', () => {
  it('reads the project a call names', () => {
    expect(projectIdOf('/projects/1000001')).toBe(1000001);
    expect(projectIdOf('/projects/1000001/devices?page=2')).toBe(1000001);
    expect(projectIdOf('/projects/1000001?x=1')).toBe(1000001);
    expect(projectIdOf('/projects?pageSize=200')).toBeNull();
    expect(projectIdOf('/projects/12x')).toBeNull();
    expect(projectIdOf('/invites/ABC/accept')).toBeNull();
  });

  it('suspects a loss only for 30, 73 or 74 from a call on the current project', () => {
    expect(mayBeLost(74, '/projects/7/devices', 7)).toBe(true);
    expect(mayBeLost(73, '/projects/7', 7)).toBe(true);
    expect(mayBeLost(30, '/projects/7/shares', 7)).toBe(true);
    expect(mayBeLost(74, '/projects/8', 7)).toBe(false);
    expect(mayBeLost(5032, '/projects/7', 7)).toBe(false);
    expect(mayBeLost(null, '/projects/7', 7)).toBe(false);
    expect(mayBeLost(74, '/projects/7', null)).toBe(false);
    expect(mayBeLost(74, '/account', 7)).toBe(false);
  });
});
