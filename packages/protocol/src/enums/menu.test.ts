import { describe, expect, it } from 'vitest';
import { AccessType } from './account.ts';
import {
  ALL_MENU_FLAGS,
  allowedRoutes,
  type GateContext,
  landingPath,
  type MenuFlags,
  ROUTES,
} from './menu.ts';
import { NetMode } from './project.ts';

const ctx = (
  access: GateContext['access'],
  netMode: GateContext['netMode'],
  flags: Partial<MenuFlags> = {},
) => ({
  access,
  netMode,
  flags: { ...ALL_MENU_FLAGS, ...flags },
});
const paths = (c: GateContext) => allowedRoutes(c).map((r) => r.path);

describe('route gating', () => {
  it('web on WLAN sees every route', () => {
    expect(paths(ctx(AccessType.WEB, NetMode.WLAN))).toEqual(ROUTES.map((r) => r.path));
  });

  it.each([['/manage/rfconf'], ['/manage/backup']])('%s is WLAN-only', (path) => {
    expect(paths(ctx(AccessType.WEB, NetMode.WLAN))).toContain(path);
    expect(paths(ctx(AccessType.WEB, NetMode.MESH))).not.toContain(path);
  });

  it('mesh loses exactly RF and backup', () => {
    const wlan = paths(ctx(AccessType.WEB, NetMode.WLAN));
    const mesh = paths(ctx(AccessType.WEB, NetMode.MESH));
    expect(wlan.filter((p) => !mesh.includes(p))).toEqual(['/manage/rfconf', '/manage/backup']);
  });

  it('openapi sees fewer menus, and no web-only one', () => {
    const web = paths(ctx(AccessType.WEB, NetMode.WLAN));
    const api = paths(ctx(AccessType.OPENAPI, NetMode.WLAN));
    expect(api.length).toBeLessThan(web.length);
    for (const p of [
      '/overview/preview',
      '/overview/list',
      '/manage/visualization/td',
      '/manage/wirelessconf',
      '/manage/rfconf',
      '/manage/authority',
    ]) {
      expect(api).not.toContain(p);
    }
    expect(api).toContain('/manage/status');
    expect(api).toContain('/manage/backup');
  });

  it('a flag turned off hides its route; a group flag hides the group', () => {
    expect(paths(ctx(AccessType.WEB, NetMode.WLAN, { vlan: false }))).not.toContain(
      '/manage/networkconf/vlan',
    );
    const noTools = paths(ctx(AccessType.WEB, NetMode.WLAN, { tools: false }));
    expect(
      noTools.filter((p) =>
        ['/manage/authority', '/manage/runlog', '/manage/alarminfo', '/manage/backup'].includes(p),
      ),
    ).toEqual([]);
  });
});

describe('landing', () => {
  it('web lands on the project overview', () => {
    expect(landingPath(ctx(AccessType.WEB, NetMode.WLAN))).toBe('/overview/preview');
    expect(landingPath(ctx(AccessType.WEB, NetMode.MESH, { status: false }))).toBe('/overview/preview');
  });

  it.each([
    [{}, '/manage/status'],
    [{ status: false }, '/manage/devconf'],
    [{ network: false }, '/manage/devconf'],
    [{ network: false, maintenance: false }, '/manage/networkconf/netset'],
    [{ network: false, maintenance: false, networkSettings: false }, '/manage/devsrunstat'],
    [
      {
        network: false,
        maintenance: false,
        networkSettings: false,
        deviceRunData: false,
        clientData: false,
        clientList: false,
      },
      '/manage/runlog',
    ],
  ] as [Partial<MenuFlags>, string][])('openapi with %o lands on %s', (flags, path) => {
    expect(landingPath(ctx(AccessType.OPENAPI, NetMode.WLAN, flags))).toBe(path);
  });

  it('openapi with nothing permitted has no landing', () => {
    const none = Object.fromEntries(Object.keys(ALL_MENU_FLAGS).map((k) => [k, false])) as MenuFlags;
    expect(landingPath({ access: AccessType.OPENAPI, netMode: NetMode.WLAN, flags: none })).toBeNull();
  });
});
