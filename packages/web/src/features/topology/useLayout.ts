import type { LayoutDirection } from '@beacon/protocol';
import ELK from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import { useEffect, useState } from 'react';
import { toElkGraph } from './elkGraph.ts';

/**
 * Node positions from elkjs, computed by elkjs's own worker build in a Web Worker, so a large graph
 * never blocks the page. The layout runs again only when the graph's shape (nodes, edges,
 * direction) changes, not when a status or a speed does. `ms` is the time the last layout took.
 */

let elk: InstanceType<typeof ELK> | null = null;
const layoutEngine = () => {
  elk ??= new ELK({ workerFactory: () => new Worker(elkWorkerUrl) });
  return elk;
};

export interface Layout {
  positions: Record<string, { x: number; y: number }>;
  ms: number;
  shape: string;
}

export function useLayout(
  nodes: readonly { id: string }[],
  edges: readonly { id: string; source: string; target: string }[],
  direction: LayoutDirection,
): Layout | null {
  const shape = `${direction}\n${nodes.map((n) => n.id).join(',')}\n${edges.map((e) => `${e.source}>${e.target}`).join(',')}`;
  const [layout, setLayout] = useState<Layout | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` stands for nodes, edges and direction
  useEffect(() => {
    if (nodes.length === 0) return;
    let live = true;
    const started = performance.now();
    layoutEngine()
      .layout(toElkGraph(nodes, edges, direction))
      .then((out) => {
        if (!live) return;
        const positions: Record<string, { x: number; y: number }> = {};
        for (const c of out.children ?? []) positions[c.id] = { x: c.x ?? 0, y: c.y ?? 0 };
        setLayout({ positions, ms: performance.now() - started, shape });
      })
      .catch((err: unknown) => console.error('topology layout failed', err));
    return () => {
      live = false;
    };
  }, [shape]);
  return layout?.shape === shape ? layout : (layout ?? null);
}
