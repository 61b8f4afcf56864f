import { type CoverageGrid, type CoverageInput, computeCoverage } from '@beacon/protocol';

/**
 * The Wi-Fi map's coverage off the main thread: one request in, the grid out (its arrays
 * transferred, not copied), with the time the computation took.
 */
export interface CoverageRequest extends CoverageInput {
  id: number;
}

export interface CoverageAnswer {
  id: number;
  grid: CoverageGrid;
  ms: number;
}

/** The worker's own scope (the web app is typed with the DOM library, not the worker's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CoverageRequest>) => void) | null;
  postMessage(message: CoverageAnswer, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  const started = performance.now();
  const { id, ...input } = event.data;
  const grid = computeCoverage(input);
  const ms = performance.now() - started;
  scope.postMessage({ id, grid, ms }, [grid.best.buffer, grid.overlap.buffer]);
};
