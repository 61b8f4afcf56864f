import { describe, expect, it } from 'vitest';
import { createClientStorage, decode, encode, KEYS, MemoryStorage } from './storage.ts';

function fresh() {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  return { local, session, s: createClientStorage(local, session) };
}

describe('client storage', () => {
  it('defaults the access type to web', () => {
    const { s, session } = fresh();
    expect(s.getAccessType()).toBe('web');
    session.setItem(KEYS.accessType, 'garbage');
    expect(s.getAccessType()).toBe('web');
    s.setAccessType('openapi');
    expect(s.getAccessType()).toBe('openapi');
  });

  it('stores the last account and nickname base64-encoded', () => {
    const { s, local } = fresh();
    s.setLastAccount('ann@example.com');
    s.setLastNick('Zoë 李');
    expect(local.getItem(KEYS.lastAccount)).toBe(btoa('ann@example.com'));
    expect(local.getItem(KEYS.lastAccount)).not.toContain('@');
    expect(s.getLastAccount()).toBe('ann@example.com');
    expect(s.getLastNick()).toBe('Zoë 李');
    expect(decode(encode('x'))).toBe('x');
    expect(decode('%%%')).toBeNull();
  });

  it('keeps the current project and the openapi token in sessionStorage', () => {
    const { s, session, local } = fresh();
    s.setProject({ id: 500000, name: 'Demo', netMode: 0, right: 'rw', isDemo: true });
    s.setToken('abc');
    expect(session.getItem(KEYS.project)).toContain('500000');
    expect(session.getItem(KEYS.token)).toBe('abc');
    expect(local.length).toBe(0);
    expect(s.getProject()?.id).toBe(500000);
  });

  it('logout clears exactly the values of SPEC.md §4 and sets the upgrade alert flag', () => {
    const { s, local, session } = fresh();
    s.setToken('tok');
    s.setAccessType('openapi');
    s.setProject({ id: 1, name: 'p', netMode: 1, right: 'r', isDemo: false });
    s.setLastAccount('a@b.co');
    s.setLastNick('nick');
    s.setRightPanelWidth(320);
    s.setFloatCoords({ x: 1, y: 2 });
    s.setFloatStatus('open');
    s.setTopoTips(['a', 'b']);
    s.setGlobalItem('k', 1);
    s.setUpgradeInfo({ showUpgradeAlertInfo: false });
    s.setTableShrink('a@b.co', 'devices', true);
    s.setTableColumns('a@b.co', 'devices', ['name', 'ip']);

    s.clearOnLogout();

    expect(s.getToken()).toBeNull();
    expect(s.getAccessType()).toBe('web');
    expect(s.getProject()).toBeNull();
    expect(s.getLastAccount()).toBeNull();
    expect(s.getLastNick()).toBeNull();
    expect(s.getRightPanelWidth()).toBeNull();
    expect(s.getFloatCoords()).toBeNull();
    expect(s.getFloatStatus()).toBeNull();
    expect(s.getTopoTips()).toEqual([]);
    expect(local.getItem(KEYS.globalStorage)).toBeNull();
    expect(s.getUpgradeInfo()).toEqual({ showUpgradeAlertInfo: true });
    expect(JSON.parse(local.getItem(KEYS.upgradeInfo)!)).toEqual({ showUpgradeAlertInfo: true });
    // Table shrink settings are per account and survive logout.
    expect(s.getTableShrink('a@b.co')).toEqual({ devices: true });
    expect(s.getTableColumns('a@b.co', 'devices')).toEqual(['name', 'ip']);
    expect(s.getTableColumns('other@b.co', 'devices')).toBeNull();
    expect(session.length).toBe(0);
    expect([...Array(local.length).keys()].map((i) => local.key(i)).sort()).toEqual(
      [KEYS.tableShrink, KEYS.tableColumns, KEYS.upgradeInfo].sort(),
    );
  });

  it('silently clears a corrupt global storage value', () => {
    const { s, local } = fresh();
    local.setItem(KEYS.globalStorage, '{not json');
    expect(s.getGlobal()).toEqual({});
    expect(local.getItem(KEYS.globalStorage)).toBeNull();

    local.setItem(KEYS.globalStorage, '[1,2]');
    expect(s.getGlobalItem('x')).toBeUndefined();
    expect(local.getItem(KEYS.globalStorage)).toBeNull();

    s.setGlobalItem('theme', 'dark');
    expect(s.getGlobalItem('theme')).toBe('dark');
    expect(JSON.parse(local.getItem(KEYS.globalStorage)!)).toEqual({ theme: 'dark' });
  });

  it('keeps table shrink settings per account', () => {
    const { s } = fresh();
    s.setTableShrink('a', 't1', true);
    s.setTableShrink('b', 't1', false);
    s.setTableShrink('a', 't2', false);
    expect(s.getTableShrink('a')).toEqual({ t1: true, t2: false });
    expect(s.getTableShrink('b')).toEqual({ t1: false });
    expect(s.getTableShrink('c')).toEqual({});
  });

  it('reads float coordinates and upgrade info defensively', () => {
    const { s, local } = fresh();
    local.setItem(KEYS.floatCoords, '{"x":"a"}');
    expect(s.getFloatCoords()).toBeNull();
    s.setFloatCoords({ x: 10, y: 20 });
    expect(s.getFloatCoords()).toEqual({ x: 10, y: 20 });
    expect(s.getUpgradeInfo().showUpgradeAlertInfo).toBe(true);
    s.setUpgradeInfo({ showUpgradeAlertInfo: false });
    expect(s.getUpgradeInfo().showUpgradeAlertInfo).toBe(false);
  });
});
