import type { LayoutDirection } from '@beacon/protocol';

/**
 * The ELK graph of a topology (layered, the uplink side first): one place for the layout options,
 * used by the layout worker and by bench/topology-layout.ts. Pure, no DOM.
 */

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 72;

export interface ElkInput {
  id: string;
  layoutOptions: Record<string, string>;
  children: { id: string; width: number; height: number }[];
  edges: { id: string; sources: string[]; targets: string[] }[];
}

export function toElkGraph(
  nodes: readonly { id: string }[],
  edges: readonly { id: string; source: string; target: string }[],
  direction: LayoutDirection,
): ElkInput {
  const ids = new Set(nodes.map((n) => n.id));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction === 'horizontal' ? 'RIGHT' : 'DOWN',
      'elk.spacing.nodeNode': '28',
      'elk.layered.spacing.nodeNodeBetweenLayers': '72',
      'elk.spacing.componentComponent': '48',
      // The server lists nodes breadth-first from the internet and points edges down: one sweep of
      // crossing minimisation is enough, and React Flow draws the edges itself, so ELK's cheapest
      // routing will do (a 1,000-device graph lays out several times faster: bench/RESULTS.md).
      'elk.layered.thoroughness': '1',
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.separateConnectedComponents': 'true',
    },
    children: nodes.map((n) => ({ id: n.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
}
