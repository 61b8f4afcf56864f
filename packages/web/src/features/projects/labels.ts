import type { ProjectView } from '@beacon/protocol';

/**
 * Demo projects carry right 'rw' (SPEC.md §3) yet refuse every change (§6), so the screens name
 * them as demo projects instead of showing a right or a property that reads as editable.
 */
export const propertyKey = (p: Pick<ProjectView, 'isDemo' | 'property'>): string =>
  p.isDemo ? 'property.demo' : `property.${p.property}`;

export const rightKey = (p: Pick<ProjectView, 'isDemo' | 'right'>): string =>
  p.isDemo ? 'right.demo' : `right.${p.right}`;
