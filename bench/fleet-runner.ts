/**
 * The simulated fleet of bench/fleet, in this process or split over child processes (bench/fleet-part.ts).
 * A process holds one socket per lean device, and the open-file limit of a process (20,000 on the
 * development machine, not raisable from inside) caps one process's fleet; past it the fleet runs in
 * `parts` children, each connected to its own broker (bench/broker.ts ownMosquittoTree).
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { type FleetOptions, startFleet } from '@beacon/agent';

export interface FleetRunner {
  /** Notes each device's connection count: `reconnected()` counts those connected again since. */
  mark(): Promise<void>;
  reconnected(): Promise<number>;
  /** Destroys every device socket at once (a storm where the broker cannot be restarted). */
  drop(): Promise<void>;
  stop(): Promise<void>;
  /** The simulator processes (for their CPU and memory). */
  pids(): number[];
}

export type PartMessage =
  | { type: 'start'; options: FleetOptions }
  | { type: 'mark' | 'reconnected' | 'drop' | 'stop' };
export type PartReply =
  | { type: 'started' | 'marked' | 'dropped' | 'stopped' }
  | { type: 'count'; count: number };

/** The fleet in this process. */
export async function fleetInProcess(options: FleetOptions): Promise<FleetRunner> {
  const fleet = await startFleet(options);
  let marks: number[] = [];
  return {
    async mark() {
      marks = fleet.devices.map((d) => d.link.connections);
    },
    async reconnected() {
      return fleet.devices.filter((d, i) => d.connected && d.link.connections > marks[i]).length;
    },
    async drop() {
      for (const d of fleet.devices) d.dropConnection();
    },
    stop: () => fleet.stop(),
    pids: () => [process.pid],
  };
}

/**
 * One child per broker URL, each with its share of the devices, started together; at `nice` (a
 * lower priority than the server's when positive).
 */
export async function fleetInChildren(
  options: Omit<FleetOptions, 'url'>,
  urls: string[],
  nice = 0,
): Promise<FleetRunner> {
  const parts = urls.map((url, i) => {
    const child = fork(path.join(import.meta.dirname, 'fleet-part.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (nice && child.pid) os.setPriority(child.pid, nice);
    const devices = (options.devices ?? []).filter((_, k) => k % urls.length === i);
    return { child, url, devices };
  });
  const ask = (child: ChildProcess, message: PartMessage, answer: PartReply['type']) =>
    new Promise<PartReply>((resolve, reject) => {
      const onMessage = (reply: PartReply) => {
        if (reply.type !== answer) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply);
      };
      const onExit = (code: number | null) => reject(new Error(`fleet part exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  const all = (message: PartMessage, answer: PartReply['type']) =>
    Promise.all(parts.map((p) => ask(p.child, message, answer)));
  // Each child ramps its share at its share of the rate: together, the fleet's ramp.
  const ramp = (options.rampPerSecond ?? 500) / parts.length;
  await Promise.all(
    parts.map((p) =>
      ask(
        p.child,
        { type: 'start', options: { ...options, url: p.url, devices: p.devices, rampPerSecond: ramp } },
        'started',
      ),
    ),
  );
  return {
    async mark() {
      await all({ type: 'mark' }, 'marked');
    },
    async reconnected() {
      const counts = await all({ type: 'reconnected' }, 'count');
      return counts.reduce((sum, c) => sum + (c.type === 'count' ? c.count : 0), 0);
    },
    async drop() {
      await all({ type: 'drop' }, 'dropped');
    },
    async stop() {
      await all({ type: 'stop' }, 'stopped').catch(() => {});
      for (const p of parts) p.child.kill();
    },
    pids: () => parts.map((p) => p.child.pid ?? 0),
  };
}
