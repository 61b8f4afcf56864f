import {
  type CoverageGrid,
  cellSizeFor,
  type FloorPlanView,
  type MapApView,
  type MapBand,
  type MapRadio,
  type MapWall,
  mapBandOf,
  metresPerPixel,
  type PlanLayout,
} from '@beacon/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CoverageAnswer, CoverageRequest } from './coverage.worker.ts';

export interface Coverage {
  grid: CoverageGrid;
  /** Time the worker took (ms). */
  ms: number;
  /** The input's identity, to tell a stale grid from the current one. */
  key: string;
}

/** The worker's input from the plan being edited: metres instead of pixels, the band's radios. */
export function coverageInput(
  plan: Pick<FloorPlanView, 'width' | 'height'>,
  layout: PlanLayout,
  aps: readonly MapApView[],
  band: MapBand,
): Omit<CoverageRequest, 'id'> | null {
  const mpp = metresPerPixel(layout.scale);
  if (!mpp) return null;
  const bySn = new Map(aps.map((a) => [a.sn, a]));
  const radios: MapRadio[] = [];
  for (const placed of layout.aps) {
    const ap = bySn.get(placed.sn);
    for (const r of ap?.radios ?? []) {
      if (mapBandOf(r.band) !== band) continue;
      radios.push({
        sn: placed.sn,
        x: placed.x * mpp,
        y: placed.y * mpp,
        channel: r.channel,
        width: r.width,
        power: r.power,
      });
    }
  }
  const walls: MapWall[] = layout.walls.map((w) => ({
    x1: w.x1 * mpp,
    y1: w.y1 * mpp,
    x2: w.x2 * mpp,
    y2: w.y2 * mpp,
    material: w.material,
  }));
  const widthM = plan.width * mpp;
  const heightM = plan.height * mpp;
  return { widthM, heightM, cellM: cellSizeFor(widthM, heightM), radios, walls };
}

/** Runs the coverage in a Web Worker whenever its input changes; the newest answer wins. */
export function useCoverage(input: Omit<CoverageRequest, 'id'> | null): Coverage | null {
  const worker = useRef<Worker | null>(null);
  const latest = useRef(0);
  const [result, setResult] = useState<Coverage | null>(null);
  const key = useMemo(() => (input ? JSON.stringify(input) : ''), [input]);
  // The newest input, read when its key (its content) changes.
  const inputRef = useRef(input);
  inputRef.current = input;

  useEffect(() => {
    const w = new Worker(new URL('./coverage.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    return () => {
      w.terminate();
      worker.current = null;
    };
  }, []);

  useEffect(() => {
    const w = worker.current;
    const input = inputRef.current;
    if (!w || !input || !key) {
      setResult(null);
      return;
    }
    const id = ++latest.current;
    const onMessage = (event: MessageEvent<CoverageAnswer>) => {
      if (event.data.id !== latest.current) return;
      setResult({ grid: event.data.grid, ms: event.data.ms, key });
    };
    w.addEventListener('message', onMessage);
    w.postMessage({ ...input, id } satisfies CoverageRequest);
    return () => w.removeEventListener('message', onMessage);
  }, [key]);

  return result;
}
