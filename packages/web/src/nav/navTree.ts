import { type GateContext, isRouteAllowed, type MenuGroup, ROUTES, type RouteEntry } from '@beacon/protocol';

export interface NavLeaf {
  kind: 'item';
  key: string;
  path: string;
  titleKey: string;
  testId: string;
}

export interface NavGroup {
  kind: 'group';
  key: string;
  titleKey: string;
  testId: string;
  children: NavNode[];
}

export type NavNode = NavLeaf | NavGroup;

/** `/manage/rfconf` → `nav-manage-rfconf`. */
export const navTestId = (path: string): string => `nav${path.replace(/\//g, '-')}`;

const GROUP_ORDER: readonly Exclude<MenuGroup, 'overview'>[] = ['network', 'configuration', 'data', 'tool'];

function leaf(route: RouteEntry): NavLeaf {
  return {
    kind: 'item',
    key: route.path,
    path: route.path,
    titleKey: route.titleKey,
    testId: navTestId(route.path),
  };
}

/**
 * The navigation tree of SPEC.md §2, derived from ROUTES: overview entries first and outside the
 * groups, then Network, Configuration (with the Gateway sub-group of wired items), Data and Tool.
 * Entries the gate refuses are left out; groups left empty disappear.
 */
export function buildNavTree(ctx: GateContext, routes: readonly RouteEntry[] = ROUTES): NavNode[] {
  const allowed = routes.filter((r) => isRouteAllowed(r, ctx));
  const tree: NavNode[] = allowed.filter((r) => r.group === 'overview').map(leaf);
  for (const group of GROUP_ORDER) {
    const children: NavNode[] = [];
    let gateway: NavGroup | null = null;
    for (const r of allowed.filter((x) => x.group === group)) {
      if (r.subGroup === 'gateway') {
        if (!gateway) {
          gateway = {
            kind: 'group',
            key: `group:${group}:gateway`,
            titleKey: 'nav.gateway',
            testId: 'nav-group-gateway',
            children: [],
          };
          children.push(gateway);
        }
        gateway.children.push(leaf(r));
      } else {
        children.push(leaf(r));
      }
    }
    if (children.length > 0) {
      tree.push({
        kind: 'group',
        key: `group:${group}`,
        titleKey: `nav.${group}`,
        testId: `nav-group-${group}`,
        children,
      });
    }
  }
  return tree;
}

/** Keys of the groups that contain `path` (to open the right sub-menus). */
export function openKeysFor(tree: NavNode[], path: string): string[] {
  for (const node of tree) {
    if (node.kind === 'group') {
      const inner = openKeysFor(node.children, path);
      if (inner.length > 0 || node.children.some((c) => c.kind === 'item' && c.path === path)) {
        return [node.key, ...inner];
      }
    }
  }
  return [];
}

export function findRoute(path: string): RouteEntry | undefined {
  return ROUTES.find((r) => r.path === path);
}

/** Keys of every group and sub-group (all open by default). */
export function allGroupKeys(tree: NavNode[]): string[] {
  return tree.flatMap((n) => (n.kind === 'group' ? [n.key, ...allGroupKeys(n.children)] : []));
}
