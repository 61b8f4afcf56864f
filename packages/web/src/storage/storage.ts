import { AccessType } from '@beacon/protocol';

/**
 * Client-side stored values of SPEC.md §3. Everything goes through a `Storage` pair so the logic
 * can be tested with an in-memory fake. Long-lived values live in localStorage; the current
 * project, the access type and the openapi token live in sessionStorage (one browser session).
 */
export const KEYS = {
  accessType: 'accessType',
  lastAccount: 'lastAccount',
  lastNick: 'lastNick',
  project: 'project',
  rightPanelWidth: 'rightPanelWidth',
  floatCoords: 'floatCoords',
  floatStatus: 'floatStatus',
  topoTips: 'topoTips',
  upgradeInfo: 'upgradeInfo',
  tableShrink: 'tableShrink',
  tableColumns: 'tableColumns',
  globalStorage: 'globalStorage',
  token: 'token',
} as const;

export interface StoredProject {
  id: number;
  name: string;
  netMode: number;
  right: string;
  isDemo: boolean;
}

export interface FloatCoords {
  x: number;
  y: number;
}

export interface UpgradeInfo {
  showUpgradeAlertInfo: boolean;
}

type AccessTypeValue = (typeof AccessType)[keyof typeof AccessType];

/** base64 of the UTF-8 bytes, so non-Latin nicknames survive. */
export function encode(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function decode(value: string): string | null {
  try {
    const binary = atob(value);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function readJson<T>(store: Storage, key: string): T | null {
  const raw = store.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function createClientStorage(local: Storage, session: Storage) {
  const api = {
    getAccessType(): AccessTypeValue {
      const v = session.getItem(KEYS.accessType);
      return v === AccessType.OPENAPI ? AccessType.OPENAPI : AccessType.WEB;
    },
    setAccessType(type: AccessTypeValue) {
      session.setItem(KEYS.accessType, type);
    },

    getLastAccount(): string | null {
      const v = local.getItem(KEYS.lastAccount);
      return v === null ? null : decode(v);
    },
    setLastAccount(account: string) {
      local.setItem(KEYS.lastAccount, encode(account));
    },
    getLastNick(): string | null {
      const v = local.getItem(KEYS.lastNick);
      return v === null ? null : decode(v);
    },
    setLastNick(nick: string) {
      local.setItem(KEYS.lastNick, encode(nick));
    },

    getProject(): StoredProject | null {
      const p = readJson<StoredProject>(session, KEYS.project);
      return p && typeof p.id === 'number' ? p : null;
    },
    setProject(project: StoredProject | null) {
      if (project === null) session.removeItem(KEYS.project);
      else
        session.setItem(
          KEYS.project,
          JSON.stringify({
            id: project.id,
            name: project.name,
            netMode: project.netMode,
            right: project.right,
            isDemo: project.isDemo,
          }),
        );
    },

    getRightPanelWidth(): number | null {
      const v = Number(local.getItem(KEYS.rightPanelWidth));
      return local.getItem(KEYS.rightPanelWidth) !== null && Number.isFinite(v) ? v : null;
    },
    setRightPanelWidth(width: number) {
      local.setItem(KEYS.rightPanelWidth, String(width));
    },

    getFloatCoords(): FloatCoords | null {
      const c = readJson<FloatCoords>(local, KEYS.floatCoords);
      return c && typeof c.x === 'number' && typeof c.y === 'number' ? c : null;
    },
    setFloatCoords(coords: FloatCoords) {
      local.setItem(KEYS.floatCoords, JSON.stringify(coords));
    },
    getFloatStatus(): string | null {
      return local.getItem(KEYS.floatStatus);
    },
    setFloatStatus(status: string) {
      local.setItem(KEYS.floatStatus, status);
    },

    getTopoTips(): string[] {
      const v = readJson<unknown>(local, KEYS.topoTips);
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    },
    setTopoTips(list: string[]) {
      local.setItem(KEYS.topoTips, JSON.stringify(list));
    },

    getUpgradeInfo(): UpgradeInfo {
      const v = readJson<UpgradeInfo>(local, KEYS.upgradeInfo);
      return { showUpgradeAlertInfo: v?.showUpgradeAlertInfo !== false };
    },
    setUpgradeInfo(info: UpgradeInfo) {
      local.setItem(KEYS.upgradeInfo, JSON.stringify(info));
    },

    /** Table shrink (collapsed columns) settings, kept per account. */
    getTableShrink(account: string): Record<string, boolean> {
      const all = readJson<Record<string, Record<string, boolean>>>(local, KEYS.tableShrink);
      const mine = all && typeof all === 'object' ? all[account] : undefined;
      return mine && typeof mine === 'object' ? mine : {};
    },
    setTableShrink(account: string, table: string, shrunk: boolean) {
      const all = readJson<Record<string, Record<string, boolean>>>(local, KEYS.tableShrink) ?? {};
      const safe = typeof all === 'object' && !Array.isArray(all) ? all : {};
      safe[account] = { ...(safe[account] ?? {}), [table]: shrunk };
      local.setItem(KEYS.tableShrink, JSON.stringify(safe));
    },

    /**
     * The columns an account chose to show in a table (part of the "table shrink settings per
     * account" of SPEC.md §3); null until it chooses. Kept at logout, like the shrink settings.
     */
    getTableColumns(account: string, table: string): string[] | null {
      const all = readJson<Record<string, Record<string, unknown>>>(local, KEYS.tableColumns);
      const mine = all && typeof all === 'object' && !Array.isArray(all) ? all[account]?.[table] : undefined;
      return Array.isArray(mine) ? mine.filter((x): x is string => typeof x === 'string') : null;
    },
    setTableColumns(account: string, table: string, columns: string[]) {
      const all = readJson<Record<string, Record<string, string[]>>>(local, KEYS.tableColumns) ?? {};
      const safe = typeof all === 'object' && !Array.isArray(all) ? all : {};
      safe[account] = { ...(safe[account] ?? {}), [table]: columns };
      local.setItem(KEYS.tableColumns, JSON.stringify(safe));
    },

    /** The global storage object; a corrupt stored value is silently cleared (SPEC.md §3). */
    getGlobal(): Record<string, unknown> {
      const raw = local.getItem(KEYS.globalStorage);
      if (raw === null) return {};
      try {
        const v: unknown = JSON.parse(raw);
        if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch {
        // fall through: corrupt
      }
      local.removeItem(KEYS.globalStorage);
      return {};
    },
    getGlobalItem<T = unknown>(key: string): T | undefined {
      return api.getGlobal()[key] as T | undefined;
    },
    setGlobalItem(key: string, value: unknown) {
      const g = api.getGlobal();
      g[key] = value;
      local.setItem(KEYS.globalStorage, JSON.stringify(g));
    },

    /** The openapi token (non-web access) lives in sessionStorage. */
    getToken(): string | null {
      return session.getItem(KEYS.token);
    },
    setToken(token: string) {
      session.setItem(KEYS.token, token);
    },

    /**
     * Logout (SPEC.md §4): clears token, project, last account, last nick, access type, panel
     * width, float coordinates, float status, topology tips and global storage, and sets the
     * upgrade alert flag to true. Table shrink settings (per account) are kept.
     */
    clearOnLogout() {
      session.removeItem(KEYS.token);
      session.removeItem(KEYS.project);
      session.removeItem(KEYS.accessType);
      local.removeItem(KEYS.lastAccount);
      local.removeItem(KEYS.lastNick);
      local.removeItem(KEYS.rightPanelWidth);
      local.removeItem(KEYS.floatCoords);
      local.removeItem(KEYS.floatStatus);
      local.removeItem(KEYS.topoTips);
      local.removeItem(KEYS.globalStorage);
      api.setUpgradeInfo({ showUpgradeAlertInfo: true });
    },
  };
  return api;
}

export type ClientStorage = ReturnType<typeof createClientStorage>;

/** In-memory Storage, used when the browser's storage is unavailable and by tests. */
export class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.has(key) ? (this.map.get(key) as string) : null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

function browserStorage(kind: 'localStorage' | 'sessionStorage'): Storage {
  try {
    const s = globalThis[kind];
    if (s) return s;
  } catch {
    // storage blocked
  }
  return new MemoryStorage();
}

export const storage: ClientStorage = createClientStorage(
  browserStorage('localStorage'),
  browserStorage('sessionStorage'),
);
