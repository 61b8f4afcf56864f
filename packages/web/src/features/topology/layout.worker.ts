import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkInput, LayoutAnswer } from './elkGraph.ts';

/** elkjs off the main thread: a graph in, node positions out (features/topology/useLayout.ts). */
const elk = new ELK();
const scope = self as unknown as {
  onmessage: ((message: MessageEvent<{ id: number; graph: ElkInput }>) => void) | null;
  postMessage(answer: LayoutAnswer): void;
};

scope.onmessage = async (message) => {
  const { id, graph } = message.data;
  const started = performance.now();
  try {
    const out = await elk.layout(graph);
    const positions: Record<string, { x: number; y: number }> = {};
    for (const c of out.children ?? []) positions[c.id] = { x: c.x ?? 0, y: c.y ?? 0 };
    scope.postMessage({ id, positions, ms: performance.now() - started });
  } catch (err) {
    scope.postMessage({ id, error: String(err) });
  }
};
