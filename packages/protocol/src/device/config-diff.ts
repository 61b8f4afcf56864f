import { canonicalJson } from './config-hash.ts';

/** One difference between two configuration documents: a leaf path (`wifi.0.ssid`) and both values. */
export interface ConfigChange {
  path: string;
  /** undefined: the path does not exist on that side. */
  before?: unknown;
  after?: unknown;
}

function leaves(value: unknown, path: string, out: Map<string, unknown>): void {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.set(path, value);
    for (const [k, v] of entries) leaves(v, path ? `${path}.${k}` : k, out);
    return;
  }
  if (value !== undefined) out.set(path, value);
}

/** The leaf-by-leaf changes from `before` to `after`, sorted by path. */
export function diffConfigs(before: unknown, after: unknown): ConfigChange[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  leaves(before ?? {}, '', a);
  leaves(after ?? {}, '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: ConfigChange[] = [];
  for (const path of paths) {
    const x = a.get(path);
    const y = b.get(path);
    if (a.has(path) && b.has(path) && canonicalJson(x) === canonicalJson(y)) continue;
    changes.push({ path, ...(a.has(path) ? { before: x } : {}), ...(b.has(path) ? { after: y } : {}) });
  }
  return changes;
}
