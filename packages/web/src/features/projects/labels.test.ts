import { describe, expect, it } from 'vitest';
import { propertyKey, rightKey } from './labels.ts';

describe('project labels', () => {
  it('names demo projects as such, whatever their right and property', () => {
    expect(propertyKey({ isDemo: true, property: 'shared_read' })).toBe('property.demo');
    expect(rightKey({ isDemo: true, right: 'rw' })).toBe('right.demo');
  });
  it('shows the property and right of other projects', () => {
    expect(propertyKey({ isDemo: false, property: 'shared_manage' })).toBe('property.shared_manage');
    expect(rightKey({ isDemo: false, right: 'r' })).toBe('right.r');
  });
});
