import { Worker } from 'node:worker_threads';
import { LIMITS } from '@beacon/protocol';

/**
 * Runs spreadsheet-worker.mjs for one import file: the unpacking and parsing happen on a worker
 * thread with its own heap limit and a deadline, so a zip bomb or a million-row sheet never stalls
 * HTTP, WebSocket or MQTT. docs/decisions/0015-spreadsheet-import-off-the-event-loop.md
 */

export type SheetRead = { grid: unknown[][] } | { error: 'too-large' | 'too-many-rows' | 'unreadable' };

const WORKER = new URL('./spreadsheet-worker.mjs', import.meta.url);
/** Workers at once per server; more imports wait for a free one (each may take ~256 MB). */
const PARALLEL = 2;
/** A sheet of 500 devices reads in well under a second; a file still busy after this is refused. */
const DEADLINE_MS = 15_000;
const HEAP_MB = 256;
const IDLE_MS = 5 * 60_000;

const limits = {
  // Header, 500 data rows, and a margin of blank rows.
  maxRows: 1 + LIMITS.DEVICES_PER_IMPORT + LIMITS.IMPORT_ROW_MARGIN,
  maxUnpackedBytes: LIMITS.IMPORT_MAX_UNPACKED_BYTES,
  maxEntries: 1000,
};

// Workers stay warm between imports (starting one and loading SheetJS costs more than reading a
// 500-row sheet); one that failed, ran out of memory or missed its deadline is replaced.
const live = new Set<Worker>();
const idle: Worker[] = [];
const idleTimers = new Map<Worker, NodeJS.Timeout>();
const waiting: Array<() => void> = [];

/** Forgets a worker that is gone (ended, crashed, or retired) and lets a waiting import start one. */
function forget(worker: Worker): void {
  if (!live.delete(worker)) return;
  const at = idle.indexOf(worker);
  if (at >= 0) idle.splice(at, 1);
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
  waiting.shift()?.();
}

function spawn(): Worker {
  const worker = new Worker(WORKER, {
    workerData: limits,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  live.add(worker);
  // A failure during a job is answered by that job; one while idle only removes the worker.
  worker.on('error', () => {});
  worker.on('exit', () => forget(worker));
  return worker;
}

async function acquire(): Promise<Worker> {
  for (;;) {
    const worker = idle.pop();
    if (worker) {
      clearTimeout(idleTimers.get(worker));
      idleTimers.delete(worker);
      worker.ref();
      return worker;
    }
    if (live.size < PARALLEL) return spawn();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(worker: Worker): void {
  if (!live.has(worker)) return;
  // An idle worker does not keep the process alive, and ends after a while without imports.
  worker.unref();
  idle.push(worker);
  idleTimers.set(
    worker,
    setTimeout(() => retire(worker), IDLE_MS),
  );
  idleTimers.get(worker)?.unref();
  waiting.shift()?.();
}

function retire(worker: Worker): void {
  forget(worker);
  void worker.terminate();
}

export async function readSheet(bytes: Buffer): Promise<SheetRead> {
  const worker = await acquire();
  return new Promise((resolve) => {
    const finish = (result: SheetRead, healthy: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) release(worker);
      else retire(worker);
      resolve(result);
    };
    const onMessage = (result: SheetRead) => finish(result, true);
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) means the file unpacks to too much.
    const onError = (err: NodeJS.ErrnoException) =>
      finish({ error: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too-large' : 'unreadable' }, false);
    const onExit = () => finish({ error: 'unreadable' }, false);
    const timer = setTimeout(() => finish({ error: 'too-large' }, false), DEADLINE_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const copy = new Uint8Array(bytes);
    worker.postMessage(copy, [copy.buffer]);
  });
}
