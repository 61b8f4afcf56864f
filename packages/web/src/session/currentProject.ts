import type { ProjectView } from '@beacon/protocol';
import { createStore, useStore } from '../state/store.ts';
import { type StoredProject, storage } from '../storage/storage.ts';

/** The current project, kept in sessionStorage for the browser session (SPEC.md §3). */
export const currentProject = createStore<StoredProject | null>(storage.getProject());

export function selectProject(project: StoredProject | ProjectView | null): void {
  const stored = project
    ? {
        id: project.id,
        name: project.name,
        netMode: project.netMode,
        right: project.right,
        isDemo: project.isDemo,
      }
    : null;
  storage.setProject(stored);
  const prev = currentProject.get();
  if (
    prev &&
    stored &&
    prev.id === stored.id &&
    prev.name === stored.name &&
    prev.netMode === stored.netMode &&
    prev.right === stored.right &&
    prev.isDemo === stored.isDemo
  )
    return;
  currentProject.set(stored);
}

export const useCurrentProject = (): StoredProject | null => useStore(currentProject);

/** Write actions are disabled for demo projects and read-only shares (SPEC.md §6). */
export function canWrite(project: { right: string; isDemo: boolean } | null | undefined): boolean {
  return !!project && project.right === 'rw' && !project.isDemo;
}
