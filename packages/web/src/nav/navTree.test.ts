import { ALL_MENU_FLAGS, type GateContext, type MenuFlags } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { allGroupKeys, buildNavTree, type NavNode, navTestId, openKeysFor } from './navTree.ts';

const web = (over: Partial<GateContext> = {}): GateContext => ({
  access: 'web',
  netMode: 0,
  flags: ALL_MENU_FLAGS,
  ...over,
});

const paths = (nodes: NavNode[]): string[] =>
  nodes.flatMap((n) => (n.kind === 'item' ? [n.path] : paths(n.children)));

const shape = (nodes: NavNode[]): unknown =>
  nodes.map((n) => (n.kind === 'item' ? n.path : { [n.titleKey]: shape(n.children) }));

describe('navigation tree', () => {
  it('builds the groups of SPEC.md §2 for web access on a WLAN project', () => {
    expect(shape(buildNavTree(web()))).toEqual([
      '/overview/preview',
      '/overview/list',
      '/overview/preview/datascreen',
      { 'nav.network': ['/manage/status', '/manage/visualization/td', '/manage/visualization/topo'] },
      {
        'nav.configuration': [
          '/manage/devconf',
          {
            'nav.gateway': [
              '/manage/networkconf/netset',
              '/manage/networkconf/vlan',
              '/manage/networkconf/dhcp',
              '/manage/networkconf/static',
              '/manage/networkconf/router',
              '/manage/networkconf/port',
            ],
          },
          '/manage/wirelessconf',
          '/manage/rfconf',
        ],
      },
      { 'nav.data': ['/manage/devsrunstat', '/manage/onlinestat', '/manage/onlinelist'] },
      { 'nav.tool': ['/manage/authority', '/manage/runlog', '/manage/alarminfo', '/manage/backup'] },
    ]);
  });

  it('hides WLAN-only entries on a MESH project', () => {
    const p = paths(buildNavTree(web({ netMode: 1 })));
    expect(p).not.toContain('/manage/rfconf');
    expect(p).not.toContain('/manage/backup');
    expect(p).toContain('/manage/wirelessconf');
  });

  it('shows fewer menus for openapi access', () => {
    const p = paths(buildNavTree(web({ access: 'openapi' })));
    expect(p).not.toContain('/overview/preview');
    expect(p).not.toContain('/manage/wirelessconf');
    expect(p).not.toContain('/manage/authority');
    expect(p).toContain('/manage/status');
    expect(p).toContain('/manage/backup');
  });

  it('drops entries whose flags are off, and empty groups', () => {
    const flags: MenuFlags = { ...ALL_MENU_FLAGS, networkSettings: false, tools: false };
    const tree = buildNavTree(web({ flags }));
    expect(paths(tree).some((x) => x.startsWith('/manage/networkconf'))).toBe(false);
    expect(tree.find((n) => n.key === 'group:tool')).toBeUndefined();
    expect(allGroupKeys(tree)).toEqual(['group:network', 'group:configuration', 'group:data']);
  });

  it('names test ids and open keys from the path', () => {
    expect(navTestId('/manage/rfconf')).toBe('nav-manage-rfconf');
    expect(navTestId('/manage/networkconf/vlan')).toBe('nav-manage-networkconf-vlan');
    const tree = buildNavTree(web());
    expect(openKeysFor(tree, '/manage/networkconf/vlan')).toEqual([
      'group:configuration',
      'group:configuration:gateway',
    ]);
    expect(openKeysFor(tree, '/overview/list')).toEqual([]);
  });
});
