import type { SwitchCheck } from '@beacon/protocol';

/**
 * Where a failure of the protocol validators shows in a form: `field` when its path names it
 * (e.g. "ports.2.pvid" → "pvid" for port index 2), else null (shown above the form).
 */
export function failureField(failure: SwitchCheck, prefix: string): string | null {
  if (!failure?.path) return null;
  if (!failure.path.startsWith(prefix)) return null;
  return failure.path.slice(prefix.length) || null;
}
