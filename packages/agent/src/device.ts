import {
  CableFreeMode,
  DEV_FACTORY_KEY,
  type DeviceType,
  deriveDeviceSecret,
  type ModelInfo,
  modelInfo,
  modelsOfType,
  validateSn,
} from '@beacon/protocol';
import { DeviceCore } from './core.ts';
import { type Incident, type IncidentOptions, triggerIncident } from './incidents.ts';
import { LeanMqttLink } from './lean.ts';
import { MqttLink } from './link.ts';
import { LiveData, type PortNeighbour } from './live.ts';
import type { Position, RadioWorld } from './radio.ts';
import { ConfigStore } from './store.ts';
import { macFromSn, rng, seedOf } from './util.ts';
import { ClientWorld } from './world.ts';

export interface DeviceOptions {
  /** Broker URL, e.g. mqtt://localhost:1883. */
  url: string;
  sn: string;
  /** A catalogue model; default the first model of `type` (default AP). */
  model?: string;
  type?: DeviceType;
  /** The MQTT password; default derived from the SN under `factoryKey`. */
  secret?: string;
  factoryKey?: string;
  /** Scales the SPEC.md §9 durations: 0.01 makes a 60 s reboot take 0.6 s. Default 1. */
  timeScale?: number;
  /** Where the device keeps its configuration (one JSON file per device); memory only without it. */
  stateDir?: string;
  /** Firmware a new device ships with; default the model's oldest version. */
  firmware?: string;
  /** Milliseconds between telemetry reports; default 30 s. */
  telemetryMs?: number;
  /** The site's clients, shared with the other APs of a fleet; default a world of its own. */
  world?: ClientWorld;
  /** The site's radio world and this AP's place in it (radio.ts); absent: it hears no neighbours. */
  radio?: { world: RadioWorld; position: Position };
  /** Local IP; default one in the world's subnet. */
  ip?: string;
  meshRole?: CableFreeMode | null;
  meshParent?: string | null;
  /** Wireless hops of a mesh secondary to the primary (default 1). */
  meshHops?: number;
  /** What hangs off each port (fleet wiring); default random hosts. */
  neighbours?: Map<number, PortNeighbour>;
  uplink?: { sn: string; port: number | null } | null;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /**
   * The MQTT client: `mqtt` (mqtt.js, default) or `lean` (lean.ts: raw packets over a socket, the
   * same session; for fleets of 100,000 in one process).
   */
  link?: 'mqtt' | 'lean';
  /** Local address of the lean link's socket (spreads a large fleet over 127.0.0.x). */
  localAddress?: string;
  keepalive?: number;
  /** The Ed25519 public key (base64) firmware must be signed with; default the development key. */
  firmwareKey?: string;
  clientEvents?: boolean;
  /** Has this incident again and again (incidents.ts), every `everyMs` while connected: tests, demos. */
  incident?: { kind: Incident; everyMs: number };
  /**
   * Clients of the device's own world (without `world`): how many stations, and the share of them
   * online whatever the simulated hour (e2e devices that must show clients at any time of day).
   */
  clients?: { population: number; onlineShare?: number };
  /** The device's wall clock in ms (default Date.now): tests move the time of day (Wi-Fi timer shutdown). */
  clock?: () => number;
  log?: (message: string) => void;
}

/** Either MQTT client of a device: the same session and test hooks. */
export type DeviceLink = MqttLink | LeanMqttLink;

/** A running simulated device. */
export class SimulatedDevice {
  constructor(
    readonly core: DeviceCore,
    readonly link: DeviceLink,
    private readonly ownWorld: ClientWorld | null,
  ) {}

  get sn(): string {
    return this.core.sn;
  }
  get model(): ModelInfo {
    return this.core.info;
  }
  get status(): number {
    return this.core.status;
  }
  get revision(): number {
    return this.core.revision;
  }
  get connected(): boolean {
    return this.link.connected;
  }
  get firmware(): string {
    return this.core.store.data.firmware;
  }

  /** Makes the device have an incident (incidents.ts): high load, IP conflict, PoE overrun, failed upgrade, crash. */
  incident(kind: Incident, options?: IncidentOptions): void {
    triggerIncident(this.core, kind, options);
  }

  private incidentTimer: NodeJS.Timeout | null = null;

  /** Has `kind` every `everyMs` while connected (until stop or kill). */
  repeatIncident(kind: Incident, everyMs: number): void {
    if (this.incidentTimer) clearInterval(this.incidentTimer);
    this.incidentTimer = setInterval(() => {
      if (this.link.connected) this.incident(kind);
    }, everyMs);
    this.incidentTimer.unref();
  }

  /** Powers off cleanly: reports offline (0), disconnects (no will) and stops. */
  async stop(): Promise<void> {
    if (this.incidentTimer) clearInterval(this.incidentTimer);
    if (this.link.connected) this.link.publish('state', { ...this.core.state(), status: 0 });
    await this.core.stop();
    await this.link.stop();
    this.ownWorld?.stop();
  }

  /** Power cut: the connection drops without DISCONNECT, so the broker publishes the last will. */
  async kill(): Promise<void> {
    if (this.incidentTimer) clearInterval(this.incidentTimer);
    await this.core.stop();
    await this.link.kill();
    this.ownWorld?.stop();
  }

  /** Test hook: a raw message on any topic over the device's connection (see MqttLink.publishRaw). */
  publishRaw(topic: string, payload: string | Buffer, qos: 0 | 1 = 1): Promise<void> {
    return this.link.publishRaw(topic, payload, qos);
  }

  /** Test hook: the device stays connected but no longer hears commands (they time out). */
  pauseListening(): void {
    this.link.pauseListening();
  }

  resumeListening(): void {
    this.link.resumeListening();
  }

  /** The SSIDs on the air now (a timer shutdown takes one off). */
  get ssids(): string[] {
    return this.core.runningWifi().map((w) => w.ssid);
  }

  /** What the device runs: its document and configHash (reported in hello and state). */
  get document(): Record<string, unknown> {
    return this.core.store.document;
  }
  get configHash(): string | undefined {
    return this.core.configHash;
  }

  /** Test hook: the running configuration is changed on the device itself; the revision stays. */
  drift(change: Record<string, unknown>): Promise<void> {
    return this.core.drift(change);
  }

  /** Test hook: refuse every document with `code` (null: accept again). */
  refuseConfig(code: number | null, message?: string): void {
    this.core.refuseConfig = code === null ? null : { code, message };
  }

  /** Another host on the LAN claims the device's IP: it reports an ip-conflict event. */
  reportIpConflict(otherMac: string): void {
    this.core.reportIpConflict(otherMac);
  }

  /** Test hook: any event, as the device's firmware would report it (id from its boot and a counter). */
  emitEvent(...args: Parameters<DeviceCore['emitEvent']>): void {
    this.core.emitEvent(...args);
  }

  /** A network failure: the TCP connection drops; the device reconnects with backoff and says hello again. */
  dropConnection(): void {
    this.link.drop();
  }
}

export function resolveModel(options: { model?: string; type?: DeviceType }): ModelInfo {
  if (options.model) {
    const info = modelInfo(options.model);
    if (!info) throw new Error(`Unknown model ${options.model}`);
    return info;
  }
  const [first] = modelsOfType(options.type ?? 'ap');
  if (!first) throw new Error(`No model of type ${options.type}`);
  return first;
}

/**
 * Starts one simulated device: loads (or creates) its configuration store, boots, and connects to the
 * broker. Resolves once it is started; `waitOnline` resolves when the first connection is made.
 */
export async function startDevice(options: DeviceOptions): Promise<SimulatedDevice> {
  const invalid = validateSn(options.sn);
  if (invalid) throw new Error(`${options.sn}: ${invalid.message}`);
  const info = resolveModel(options);
  const log = options.log ?? (() => {});
  const timeScale = options.timeScale ?? 1;
  const ownWorld = options.world
    ? null
    : new ClientWorld({
        site: seedOf(options.sn) & 0xfff,
        // Its own stations: seeded by the SN, not by the 4,096 subnets (bench/ingest's fleets had
        // APs sharing their stations, decision 0044).
        seed: `sn:${options.sn}`,
        timeScale,
        population: options.clients?.population,
        onlineShare: options.clients?.onlineShare,
        tickMs: options.clients
          ? Math.max(200, Math.min(5000, (options.telemetryMs ?? 30_000) / 2))
          : undefined,
      });
  const world = options.world ?? ownWorld!;
  const r = rng(seedOf(options.sn));
  const store = await ConfigStore.open(
    options.stateDir,
    options.sn,
    info,
    options.firmware ?? info.firmware[0],
  );
  const live = new LiveData(
    info,
    r,
    options.neighbours ?? new Map(),
    {
      role: options.meshRole ?? (info.type === 'mesh' ? CableFreeMode.PRIMARY : null),
      parent: options.meshParent ?? null,
      hops: options.meshHops,
    },
    options.sn,
  );
  live.uplink = options.uplink ?? null;
  const core = new DeviceCore({
    sn: options.sn,
    info,
    store,
    world,
    live,
    mac: macFromSn(options.sn),
    ip: options.ip ?? `${world.subnet}.${2 + (seedOf(`ip:${options.sn}`) % 90)}`,
    timeScale,
    telemetryMs: options.telemetryMs ?? 30_000,
    firmwareKey: options.firmwareKey,
    clientEvents: options.clientEvents ?? true,
    clock: options.clock,
    radio: options.radio,
    log: (m) => log(`[${options.sn}] ${m}`),
  });
  const secret =
    options.secret ?? (await deriveDeviceSecret(options.factoryKey ?? DEV_FACTORY_KEY, options.sn));
  const linkOptions = {
    url: options.url,
    sn: options.sn,
    secret,
    backoffMinMs: options.backoffMinMs ?? 1000,
    backoffMaxMs: options.backoffMaxMs ?? 60_000,
    keepalive: options.keepalive ?? 30,
    onConnected: () => core.onConnected(),
    onDisconnected: () => core.onDisconnected(),
    onMessage: (payload: Buffer) => void core.onMessage(payload),
    onTunnel: (payload: Buffer) => core.onTunnel(payload),
    log: (m: string) => log(`[${options.sn}] ${m}`),
  };
  const link: DeviceLink =
    options.link === 'lean'
      ? new LeanMqttLink({ ...linkOptions, localAddress: options.localAddress })
      : new MqttLink(linkOptions);
  await core.start(link);
  link.start();
  const device = new SimulatedDevice(core, link, ownWorld);
  if (options.incident) device.repeatIncident(options.incident.kind, options.incident.everyMs);
  return device;
}
