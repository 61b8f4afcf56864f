import {
  deviceEventSchema,
  helloSchema,
  modelInfo,
  replySchema,
  stateMessageSchema,
  type TunnelResponse,
  telemetrySchema,
  type UpKind,
} from '@beacon/protocol';
import type { z } from 'zod';
import { DeviceCore, type Link } from './core.ts';
import { LiveData } from './live.ts';
import { ConfigStore } from './store.ts';
import { rng } from './util.ts';
import { ClientWorld } from './world.ts';

const SCHEMAS: Record<UpKind, z.ZodType> = {
  hello: helloSchema,
  state: stateMessageSchema,
  telemetry: telemetrySchema,
  event: deviceEventSchema,
  reply: replySchema,
};

/** A link in memory for unit tests: records what the device publishes and checks it against the schemas. */
export class MemoryLink implements Link {
  connected = true;
  sent: { kind: UpKind; payload: Record<string, unknown> }[] = [];
  invalid: string[] = [];
  suspensions = 0;
  core: DeviceCore | null = null;

  publish(kind: UpKind, payload: object): void {
    if (!this.connected) return;
    const copy = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
    const parsed = SCHEMAS[kind].safeParse(copy);
    if (!parsed.success) this.invalid.push(`${kind}: ${parsed.error.message}`);
    this.sent.push({ kind, payload: copy });
  }
  async suspend(): Promise<void> {
    this.suspensions++;
    this.connected = false;
    this.core?.onDisconnected();
  }
  resume(): void {
    this.connected = true;
    this.core?.onConnected();
  }
  tunnel: TunnelResponse[] = [];
  publishTunnel(payload: TunnelResponse): void {
    if (this.connected) this.tunnel.push(payload);
  }
  of(kind: UpKind): Record<string, unknown>[] {
    return this.sent.filter((m) => m.kind === kind).map((m) => m.payload);
  }
  statuses(): number[] {
    return this.of('state').map((s) => s.status as number);
  }
  reply(id: string): Record<string, unknown> | undefined {
    return this.of('reply').find((r) => r.id === id);
  }
}

export interface TestDevice {
  core: DeviceCore;
  link: MemoryLink;
  world: ClientWorld;
  store: ConfigStore;
}

/** A device core on a memory link, connected. */
export async function testDevice(
  model = 'BA-W1200C',
  options: {
    timeScale?: number;
    stateDir?: string;
    sn?: string;
    world?: ClientWorld;
    clock?: () => number;
  } = {},
): Promise<TestDevice> {
  const info = modelInfo(model)!;
  const sn = options.sn ?? 'TESTDEV000000001';
  const store = await ConfigStore.open(options.stateDir, sn, info, info.firmware[0]);
  const world = options.world ?? new ClientWorld({ site: 1, tickMs: 3_600_000 });
  const live = new LiveData(info, rng(7), new Map(), {
    role: info.type === 'mesh' ? 'primary' : null,
    parent: null,
  });
  const core = new DeviceCore({
    sn,
    info,
    store,
    world,
    live,
    mac: '02:BE:AC:00:00:01',
    ip: '10.16.1.2',
    timeScale: options.timeScale ?? 0.001,
    telemetryMs: 3_600_000,
    clientEvents: true,
    clock: options.clock,
    log: () => {},
  });
  const link = new MemoryLink();
  link.core = core;
  await core.start(link);
  core.onConnected();
  return { core, link, world, store };
}

export async function waitFor(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
