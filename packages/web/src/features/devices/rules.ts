import {
  type BlockReason,
  blockReason,
  compareVersions,
  type DeviceFacts,
  type MaintenanceAction,
  modelInfo,
} from '@beacon/protocol';

/**
 * What the selection of the device table can do in bulk, and how a bulk call's answer reads: pure
 * functions, unit-tested in rules.test.ts. Which actions a device can take now (blockReason) lives
 * in packages/protocol (api/action-rules.ts), beside the server's own refusal rules.
 */

/** An entry of the bulk menu: one action with fixed parameters, or a form for them. */
export interface BulkSpec {
  /** i18n key under devices.action and the button's test id (bulk-{key}). */
  key: string;
  action: MaintenanceAction;
  capability: string;
  params?: Record<string, unknown>;
  form?: 'upgrade' | 'reboot-schedule';
  danger?: boolean;
}

/** Every action the bulk API takes that makes sense for several devices at once. */
export const BULK_SPECS: readonly BulkSpec[] = [
  { key: 'reboot', action: 'reboot', capability: 'reboot', params: {} },
  { key: 'upgrade', action: 'upgrade', capability: 'upgrade', form: 'upgrade' },
  { key: 'locate', action: 'locate', capability: 'locate', params: { seconds: 60 } },
  { key: 'led-on', action: 'led', capability: 'led', params: { on: true } },
  { key: 'led-off', action: 'led', capability: 'led', params: { on: false } },
  { key: 'reboot-schedule', action: 'reboot-schedule', capability: 'reboot', form: 'reboot-schedule' },
  {
    key: 'local-management-on',
    action: 'local-management',
    capability: 'local-management',
    params: { enabled: true },
  },
  {
    key: 'local-management-off',
    action: 'local-management',
    capability: 'local-management',
    params: { enabled: false },
  },
  { key: 'reset', action: 'reset', capability: 'reset', params: {}, danger: true },
];

export function bulkSpec(key: string): BulkSpec {
  const spec = BULK_SPECS.find((s) => s.key === key);
  if (!spec) throw new Error(`unknown bulk action ${key}`);
  return spec;
}

/** The selected devices split into those that can take the action now and those that cannot. */
export function partitionSelection<D extends DeviceFacts>(
  spec: BulkSpec,
  devices: readonly D[],
  writable: boolean,
): { ready: D[]; refused: { device: D; reason: BlockReason }[] } {
  const ready: D[] = [];
  const refused: { device: D; reason: BlockReason }[] = [];
  for (const device of devices) {
    const reason = blockReason(spec.action, device, { writable, capability: spec.capability });
    if (reason) refused.push({ device, reason });
    else ready.push(device);
  }
  return { ready, refused };
}

/** How many refused devices there are for each reason, most first. */
export function countReasons(
  refused: readonly { reason: BlockReason }[],
): { reason: BlockReason; count: number }[] {
  const counts = new Map<BlockReason, number>();
  for (const r of refused) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/**
 * A bulk upgrade names one version, so the selection must be of one model; offered are the
 * model's released versions newer than the oldest one running among the selection.
 */
export function upgradeChoice(
  devices: readonly DeviceFacts[],
):
  | { ok: true; model: string; versions: string[] }
  | { ok: false; reason: 'none' | 'mixedModels' | 'upToDate' } {
  if (devices.length === 0) return { ok: false, reason: 'none' };
  const models = new Set(devices.map((d) => d.model));
  if (models.size > 1) return { ok: false, reason: 'mixedModels' };
  const model = devices[0]!.model;
  const released = modelInfo(model)?.firmware ?? [];
  const running = devices.map((d) => d.firmware ?? released[0] ?? '0').sort(compareVersions);
  const oldest = running[0] ?? '0';
  const versions = released.filter((v) => compareVersions(v, oldest) > 0).reverse();
  return versions.length > 0 ? { ok: true, model, versions } : { ok: false, reason: 'upToDate' };
}

/** One device's answer in a bulk call (ActionResultView). */
export interface ResultFacts {
  sn: string;
  code: number;
  message: string | null;
}

/** Successes and failures of a bulk call, the failures grouped by code, most first. */
export function summarizeResults(results: readonly ResultFacts[]): {
  succeeded: number;
  failed: number;
  failures: { code: number; message: string; count: number }[];
} {
  const groups = new Map<number, { code: number; message: string; count: number }>();
  let succeeded = 0;
  for (const r of results) {
    if (r.code === 0) {
      succeeded++;
      continue;
    }
    const group = groups.get(r.code) ?? { code: r.code, message: r.message ?? '', count: 0 };
    group.count++;
    groups.set(r.code, group);
  }
  const failures = [...groups.values()].sort((a, b) => b.count - a.count || a.code - b.code);
  return { succeeded, failed: results.length - succeeded, failures };
}

/**
 * The table's selection spans pages: keys come from the table, device facts from the rows seen
 * (fresh ones from the current page win). Keys whose device was never seen are kept as keys only.
 */
export function resolveSelection<D extends { sn: string }>(
  keys: readonly string[],
  fresh: readonly D[],
  known: ReadonlyMap<string, D>,
): D[] {
  const page = new Map(fresh.map((d) => [d.sn, d]));
  const out: D[] = [];
  for (const k of keys) {
    const d = page.get(k) ?? known.get(k);
    if (d) out.push(d);
  }
  return out;
}

/** Remembers the rows of a selection change next to those already known, for other pages. */
export function rememberRows<D extends { sn: string }>(
  known: ReadonlyMap<string, D>,
  keys: readonly string[],
  rows: readonly (D | undefined)[],
): Map<string, D> {
  const keep = new Set(keys);
  const next = new Map<string, D>();
  for (const [sn, d] of known) if (keep.has(sn)) next.set(sn, d);
  for (const r of rows) if (r && keep.has(r.sn)) next.set(r.sn, r);
  return next;
}

/** The reboot-schedule form's values as the action's parameters. */
export function scheduleParams(values: {
  enabled?: boolean;
  days?: number[];
  time?: string;
}): Record<string, unknown> {
  return values.enabled === false ? { enabled: false } : { days: values.days ?? [], time: values.time };
}
