import type { LayoutDirection } from '@beacon/protocol';
import { useEffect, useState } from 'react';
import { type LayoutAnswer, toElkGraph } from './elkGraph.ts';

/**
 * Node positions from elkjs, computed in a Web Worker (layout.worker.ts) so a large graph never
 * blocks the page. The layout runs again only when the graph's shape (nodes, edges, direction)
 * changes, not when a status or a speed does. `ms` is the worker's time for the last layout.
 */

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (answer: LayoutAnswer) => void>();

function layoutWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (message: MessageEvent<LayoutAnswer>) => {
      waiting.get(message.data.id)?.(message.data);
      waiting.delete(message.data.id);
    };
  }
  return worker;
}

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
    if (nodes.length === 0) {
      setLayout({ positions: {}, ms: 0, shape });
      return;
    }
    let live = true;
    const id = nextId++;
    waiting.set(id, (answer) => {
      if (live && answer.positions) setLayout({ positions: answer.positions, ms: answer.ms ?? 0, shape });
    });
    layoutWorker().postMessage({ id, graph: toElkGraph(nodes, edges, direction) });
    return () => {
      live = false;
      waiting.delete(id);
    };
  }, [shape]);
  return layout;
}
