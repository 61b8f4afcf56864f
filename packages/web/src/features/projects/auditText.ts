import type { AuditView } from '@beacon/protocol';

type Fields = Record<string, unknown> | null;

const asFields = (v: unknown): Fields =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A device shown without a name of its own: what the device list shows (model and SN tail). */
const unnamedDevice = (model: string, sn: string) => `${model}-${sn.slice(-6)}`;

/**
 * What an activity row is about, by name rather than id: the name the row recorded (project,
 * device, scenario), the account of a share, the file of a firmware; a device action recorded no
 * name, so the project's device list (`deviceNames`, SN → name) supplies it. The id is the last
 * resort, for something since deleted.
 */
export function auditSubject(a: AuditView, deviceNames: ReadonlyMap<string, string>): string {
  const after = asFields(a.after);
  const before = asFields(a.before);
  const pick = (key: string) => text(after?.[key]) ?? text(before?.[key]);
  if (a.entity === 'device' && a.entityId) {
    const named = pick('name') ?? deviceNames.get(a.entityId);
    if (named) return named;
    const model = pick('model');
    return model ? unnamedDevice(model, a.entityId) : a.entityId;
  }
  return (
    pick('name') ?? pick('account') ?? pick('fileName') ?? pick('nick') ?? pick('owner') ?? a.entityId ?? ''
  );
}

/** The i18n keys of an activity row's entity and action; unknown ones fall back to the raw word. */
export const auditEntityKey = (a: AuditView) => `audit.entity.${a.entity}`;
export const auditActionKey = (a: AuditView) => `audit.action.${a.action}`;
