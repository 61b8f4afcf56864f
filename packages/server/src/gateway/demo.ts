import path from 'node:path';
import { DEMO_PROJECT_IDS, type DeviceType, modelInfo } from '@beacon/protocol';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';
import type { Gateway } from './gateway.ts';

/**
 * The simulated fleet `npm start` runs (config.demo; DEMO=0 turns it off, tests always do):
 * - demo project 500000 (WLAN): a gateway, two switches and ten APs on one site, whose clients come
 *   and go (a few dozen at a time);
 * - demo project 600000 (MESH): a primary and three secondary mesh nodes;
 * - a pool of 24 powered-on devices no project has claimed (three of every type), with the fixed
 *   serial numbers below (README.md "Try adding a device"): add one to a project of yours by SN.
 * The devices run in this process with the agent's API (packages/agent) at real time, against the
 * server's own broker, and keep their configuration under DATA_DIR/agent-state.
 */

export interface DemoDevice {
  sn: string;
  model: string;
  projectId: number | null;
  site: number;
}

const WLAN = DEMO_PROJECT_IDS.WLAN;
const MESH = DEMO_PROJECT_IDS.MESH;

const demo = (sn: string, model: string, projectId: number | null, site: number): DemoDevice => ({
  sn,
  model,
  projectId,
  site,
});

/** Two letters per type in the pool's serial numbers. */
const POOL_CODES: Record<DeviceType, string> = {
  router: 'GW',
  switch: 'SW',
  ap: 'AP',
  mesh: 'MS',
  v7: 'VS',
  wrouter: 'WR',
  nvr: 'NV',
  cpe: 'CP',
};

/** The pool: `POOL{type code}{10 digits}`, e.g. POOLAP0000000001, three per type, one model each. */
const POOL_MODELS: Record<DeviceType, string[]> = {
  router: ['BG-R1200', 'BG-R3000P', 'BG-R1200'],
  switch: ['BS-S1008P', 'BS-S2024P', 'BS-S1016'],
  ap: ['BA-W1200C', 'BA-W3000X', 'BA-O1800'],
  mesh: ['BM-M1500', 'BM-M1500', 'BM-M1500'],
  v7: ['BV-V7', 'BV-V7', 'BV-V7'],
  wrouter: ['BW-R1800', 'BW-R1800', 'BW-R1800'],
  nvr: ['BN-N0804P', 'BN-N0804P', 'BN-N0804P'],
  cpe: ['BC-C5', 'BC-C5', 'BC-C5'],
};

export const POOL_DEVICES: DemoDevice[] = (Object.keys(POOL_MODELS) as DeviceType[]).flatMap((type, t) =>
  // Each pool device is a site of its own, except the mesh nodes: one site, so the first is a
  // primary and the other two its secondaries (a cable-free project takes one primary, 5008).
  POOL_MODELS[type].map((model, i) =>
    demo(
      `POOL${POOL_CODES[type]}${String(i + 1).padStart(10, '0')}`,
      model,
      null,
      type === 'mesh' ? 9 : 10 + t * 3 + i,
    ),
  ),
);

export const DEMO_DEVICES: DemoDevice[] = [
  demo('DEMOGW0000000001', 'BG-R3000P', WLAN, 0),
  demo('DEMOSW0000000001', 'BS-S2024P', WLAN, 0),
  demo('DEMOSW0000000002', 'BS-S1008P', WLAN, 0),
  ...Array.from({ length: 10 }, (_, i) =>
    demo(`DEMOAP${String(i + 1).padStart(10, '0')}`, ['BA-W1200C', 'BA-W3000X', 'BA-O1800'][i % 3], WLAN, 0),
  ),
  ...Array.from({ length: 4 }, (_, i) =>
    demo(`DEMOMS${String(i + 1).padStart(10, '0')}`, 'BM-M1500', MESH, 1),
  ),
];

/** Binds the demo devices to the demo projects (pre-provisioned until they connect); idempotent. */
export async function seedDemoDevices(database: Database): Promise<void> {
  const now = new Date();
  for (const d of DEMO_DEVICES) {
    const info = modelInfo(d.model)!;
    await database.db
      .insert(devices)
      .values({
        sn: d.sn,
        projectId: d.projectId,
        model: info.model,
        type: info.type,
        capabilities: [...info.capabilities],
        boundAt: now,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: devices.sn,
        set: {
          projectId: sql`excluded.project_id`,
          boundAt: sql`coalesce(${devices.boundAt}, excluded.bound_at)`,
        },
      });
    // A device never seen shows its model's ports until it reports its own.
    await database.db
      .update(deviceState)
      .set({ portCount: info.ports.length })
      .where(and(eq(deviceState.sn, d.sn), eq(deviceState.portCount, 0)));
  }
}

export interface RunningFleet {
  stop(): Promise<void>;
}

/** Seeds the demo bindings and starts the demo fleet and the pool against the gateway's broker. */
export async function startDemoFleet(deps: {
  config: Config;
  database: Database;
  gateway: Gateway;
  log: FastifyBaseLogger;
}): Promise<RunningFleet | null> {
  await seedDemoDevices(deps.database);
  let agent: typeof import('@beacon/agent');
  try {
    agent = await import('@beacon/agent');
  } catch (err) {
    deps.log.warn({ err }, 'demo: the device simulator (packages/agent) is not available; no demo fleet');
    return null;
  }
  const all = [...DEMO_DEVICES, ...POOL_DEVICES];
  const fleet = await agent.startFleet({
    url: deps.gateway.brokerUrl,
    factoryKey: deps.config.factoryKey,
    devices: all.map((d) => ({ sn: d.sn, model: d.model, site: d.site })),
    stateDir: path.join(deps.config.dataDir, 'agent-state'),
    rampPerSecond: 50,
  });
  deps.log.info(
    { devices: all.length, pool: POOL_DEVICES.map((d) => d.sn).slice(0, 3) },
    'demo: simulated fleet started (demo projects and the pool of unclaimed devices)',
  );
  return fleet;
}
