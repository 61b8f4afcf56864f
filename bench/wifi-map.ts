/// <reference lib="dom" />
import path from 'node:path';
import {
  type CoverageInput,
  cellSizeFor,
  computeCoverage,
  type MapRadio,
  type MapWall,
  WALL_MATERIALS,
} from '@beacon/protocol';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../e2e/helpers/chromium.ts';
import { paintGrid } from '../packages/web/src/features/wifi-map/colours.ts';

/**
 * The Wi-Fi map's coverage on a 50 m × 50 m floor with 30 APs and 60 walls (issue 13: under a
 * second). Measured twice, 3 runs each:
 *
 * 1. in Node: CPU seconds of computeCoverage and of painting the grid (process.cpuUsage);
 * 2. in headless Chromium, as the screen does it: a new Web Worker from the screen's own worker module
 *    (bundled by esbuild), the input posted, the grid painted into a canvas and drawn scaled over a
 *    1000 × 1000 plan, until the next animation frame — wall time, worker start-up included.
 *
 * `npm run bench:wifi-map -w @beacon/bench`
 */

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function floor(band: '2.4G' | '5G', seed = 7): CoverageInput {
  const r = rng(seed);
  const radios: MapRadio[] = Array.from({ length: 30 }, (_, i) => ({
    sn: `AP${i}`,
    x: 2 + r() * 46,
    y: 2 + r() * 46,
    channel: band === '2.4G' ? [1, 6, 11][i % 3]! : [36, 44, 149, 157][i % 4]!,
    width: band === '2.4G' ? 20 : 40,
    power: 14 + Math.round(r() * 10),
  }));
  const walls: MapWall[] = Array.from({ length: 60 }, (_, i) => {
    const x = r() * 50;
    const y = r() * 50;
    const horizontal = i % 2 === 0;
    const len = 3 + r() * 12;
    return {
      x1: x,
      y1: y,
      x2: horizontal ? Math.min(50, x + len) : x,
      y2: horizontal ? y : Math.min(50, y + len),
      material: WALL_MATERIALS[i % WALL_MATERIALS.length]!,
    };
  });
  return { widthM: 50, heightM: 50, cellM: cellSizeFor(50, 50), radios, walls };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms (runs ${xs.map((x) => x.toFixed(0)).join(', ')}; spread ${(Math.max(...xs) - Math.min(...xs)).toFixed(0)} ms)`;

async function inNode(): Promise<void> {
  for (const band of ['2.4G', '5G'] as const) {
    const input = floor(band);
    const compute: number[] = [];
    const paint: number[] = [];
    for (let run = 0; run < 3; run++) {
      let cpu = process.cpuUsage();
      const grid = computeCoverage(input);
      let used = process.cpuUsage(cpu);
      compute.push((used.user + used.system) / 1000);
      cpu = process.cpuUsage();
      paintGrid(grid, 'coverage');
      used = process.cpuUsage(cpu);
      paint.push((used.user + used.system) / 1000);
      if (run === 0)
        console.log(`${band}: ${grid.cols} × ${grid.rows} cells of ${grid.cellM} m, 30 radios, 60 walls`);
    }
    console.log(`  Node CPU computeCoverage: ${fmt(compute)}`);
    console.log(`  Node CPU paint:           ${fmt(paint)}`);
  }
}

async function inChromium(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) {
    console.log('no Chromium: browser figures skipped');
    return;
  }
  const bundle = async (entry: string, format: 'esm' | 'iife', globalName?: string) =>
    (
      await build({
        entryPoints: [path.resolve(import.meta.dirname, entry)],
        bundle: true,
        write: false,
        format,
        globalName,
        platform: 'browser',
        target: 'es2022',
      })
    ).outputFiles[0]!.text;
  const worker = await bundle('../packages/web/src/features/wifi-map/coverage.worker.ts', 'iife');
  console.log(`worker bundle: ${(worker.length / 1024).toFixed(0)} KB`);
  const colours = await bundle('../packages/web/src/features/wifi-map/colours.ts', 'iife', 'Colours');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.setContent('<canvas id="plan" width="1000" height="1000"></canvas>');
    await page.addScriptTag({ content: colours });
    for (const band of ['2.4G', '5G'] as const) {
      const times: number[] = [];
      const computeTimes: number[] = [];
      for (let run = 0; run < 3; run++) {
        const ms = await page.evaluate(
          async ({ worker, input }) => {
            const started = performance.now();
            const w = new Worker(URL.createObjectURL(new Blob([worker], { type: 'text/javascript' })));
            const answer = await new Promise<{ grid: { cols: number; rows: number }; ms: number }>(
              (resolve) => {
                w.onmessage = (e: MessageEvent) => resolve(e.data);
                w.postMessage({ ...input, id: 1 });
              },
            );
            const grid = answer.grid;
            const cells = document.createElement('canvas');
            cells.width = grid.cols;
            cells.height = grid.rows;
            // biome-ignore lint/suspicious/noExplicitAny: the bundle's global
            const paint = (window as any).Colours.paintGrid;
            cells
              .getContext('2d')!
              .putImageData(new ImageData(paint(grid, 'coverage'), grid.cols, grid.rows), 0, 0);
            const plan = (document.getElementById('plan') as HTMLCanvasElement).getContext('2d')!;
            plan.clearRect(0, 0, 1000, 1000);
            plan.drawImage(cells, 0, 0, 1000, 1000);
            await new Promise((r) => requestAnimationFrame(() => r(null)));
            w.terminate();
            return { total: performance.now() - started, compute: answer.ms };
          },
          { worker, input: floor(band) },
        );
        times.push(ms.total);
        computeTimes.push(ms.compute);
      }
      console.log(`${band}: Chromium, worker start + compute + paint + frame: ${fmt(times)}`);
      console.log(`${band}: Chromium, of which computeCoverage in the worker: ${fmt(computeTimes)}`);
    }
  } finally {
    await browser.close();
  }
}

await inNode();
await inChromium();
