import { randomBytes } from 'node:crypto';
import {
  allowedChannels,
  busyCode,
  CableFreeMode,
  Capability,
  COMMAND_EXPIRED,
  COMMAND_NAMES,
  COMMAND_RULES,
  Codes,
  type Command,
  type CommandName,
  type CommandOf,
  ConfigStatus,
  CpeMode,
  canonicalJson,
  commandSchema,
  configHash,
  DEFAULT_TX_POWER,
  DEFAULT_WIFI_COUNTRY,
  DEV_FIRMWARE_PUBLIC_KEY,
  type DeviceEventName,
  DeviceMode,
  DeviceOperation,
  DeviceStatus,
  defaultWidth,
  dhcpPoolSize,
  type ErrorCode,
  type EventLevel,
  errorMessage,
  FIRMWARE_CHECK_CODES,
  type FrequencyBand,
  failureFromZod,
  type Hello,
  hasCapability,
  inTimerShutdown,
  LIMITS,
  type LiveState,
  ManagementMode,
  MODEL_UNSUPPORTED,
  type ModelInfo,
  maxPowerFor,
  parseFirmwareHeader,
  RemoteManageState,
  type Reply,
  type Telemetry,
  type TunnelResponse,
  tunnelRequestSchema,
  type UpKind,
  upgradeCheck,
  validateDeviceConfig,
  verifyFirmware,
  zonedParts,
} from '@beacon/protocol';
import type { LiveData } from './live.ts';
import type { Position, RadioTuning, RadioWorld } from './radio.ts';
import { badTunnelRequest, escapeHtml, RemoteSession } from './remote.ts';
import { routeTableOf } from './routes.ts';
import type { ConfigStore } from './store.ts';
import { between, scaledMs, sha256Hex } from './util.ts';
import type { AccessPoint, ClientWorld, Station } from './world.ts';

/** Chance that a joining client claims the device's own IP (an ip-conflict event; about 1 in 2,000 joins). */
const IP_CONFLICT_CHANCE = 1 / 2000;

/** How the device core reaches the network (MQTT in production, memory in unit tests). */
export interface Link {
  readonly connected: boolean;
  /** When the current connection was made (the ts of its last will); 0 before the first. */
  readonly connectedAt?: number;
  publish(kind: UpKind, payload: object): void;
  /** One piece of a remote-management answer on `dev/{sn}/up/http` (QoS 0: the browser retries). */
  publishTunnel(payload: TunnelResponse): void;
  /** Closes the connection cleanly (no last will) and stays away until resume(). */
  suspend(): Promise<void>;
  resume(): void;
}

export interface CoreOptions {
  sn: string;
  info: ModelInfo;
  store: ConfigStore;
  world: ClientWorld;
  live: LiveData;
  mac: string;
  ip: string;
  timeScale: number;
  telemetryMs: number;
  /**
   * The public key (base64, Ed25519) firmware images must be signed with (docs/decisions/0061);
   * default the development key.
   */
  firmwareKey?: string;
  /** Publish an event for every client join, leave and roam. */
  clientEvents: boolean;
  /**
   * The device's wall clock in ms (default Date.now): the Wi-Fi timer shutdown reads it in the
   * document's time zone. Tests give a simulated clock to move the time of day.
   */
  clock?: () => number;
  /** The site's radio world and where this AP hangs in it (radio.ts); absent: it hears no one. */
  radio?: { world: RadioWorld; position: Position };
  log: (message: string) => void;
}

/** Seconds the simulated upgrade spends downloading the image when no URL is given. */
export const UPGRADE_DOWNLOAD_SECONDS = 20;
/** Seconds a device shows "upgrade done" (2) before it reports online (1). */
export const UPGRADE_DONE_SECONDS = 10;

export interface AdmitContext {
  info: ModelInfo;
  status: number;
  operation: string | null;
  mode: number;
}

/**
 * The device's admission rule for a command: busy (71, 5046, 2010) first, then the model's
 * capability (2), then local management mode (76). 0 = accepted.
 */
export function admitCommand(ctx: AdmitContext, name: Command['name']): ErrorCode | 0 {
  const busy = busyCode(ctx.status, ctx.operation);
  if (busy !== null) return busy;
  const rule = COMMAND_RULES[name];
  if (rule.capability && !hasCapability(ctx.info, rule.capability)) return MODEL_UNSUPPORTED;
  if (rule.cloudOnly && ctx.mode === ManagementMode.LOCAL) return Codes.LOCAL_MANAGE;
  return 0;
}

/**
 * The simulated device without its transport: the state machine of SPEC.md §4 with the durations of
 * §9 (scaled), one command at a time, the configuration store, and the live data it reports.
 */
export class DeviceCore {
  readonly sn: string;
  readonly info: ModelInfo;
  status: number = DeviceStatus.ONLINE;
  operation: DeviceOperation | null = null;
  progress: number | undefined;
  bootId = '';
  bootedAt = Date.now();
  private link: Link | null = null;
  private locatingUntil = 0;
  private remote: RemoteSession | null = null;
  private remoteState: RemoteManageState = RemoteManageState.CLOSED;
  private readonly replies = new Map<string, Reply>();
  private readonly inFlight = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private telemetryTimer: NodeJS.Timeout | null = null;
  private eventSeq = 0;
  private stopped = false;
  private readonly ap: AccessPoint | null;

  constructor(readonly options: CoreOptions) {
    this.sn = options.sn;
    this.info = options.info;
    this.ap = hasCapability(this.info, Capability.WIFI)
      ? {
          sn: this.sn,
          bands: this.info.bands,
          capacity: this.info.maxClientsPerBand * this.info.bands.length,
          ssids: () => this.ssids(),
          onClient: (event, station, from) => this.onClient(event, station, from),
          refuses: (mac) => this.refuses(mac),
          roaming: () => this.roaming(),
        }
      : null;
  }

  /** The roaming tuner of the running configuration (docs/decisions/0048). */
  private roaming() {
    const doc = this.store.document;
    const thresholds: Partial<Record<FrequencyBand, number>> = {};
    for (const r of doc.radios ?? [])
      if (r.accessThreshold !== undefined) thresholds[r.band] = r.accessThreshold;
    return {
      bandSteering: doc.roaming?.bandSteering ?? false,
      loadBalanceClients: doc.roaming?.loadBalanceClients ?? 0,
      thresholds,
    };
  }

  /**
   * What each radio runs: the configured channel, or the one it picked itself (channel 0, automatic);
   * the configured width and power, the power held to the country's limit (as firmware does).
   */
  effectiveRadios(): RadioTuning[] {
    const doc = this.store.document;
    const country = doc.country ?? DEFAULT_WIFI_COUNTRY;
    const out: RadioTuning[] = [];
    for (const band of this.info.bands) {
      const set = doc.radios?.find((r) => r.band === band);
      if (set && !set.enabled) continue;
      const width = set?.width ?? defaultWidth(band);
      const channel =
        set?.channel || this.options.live.autoChannel(band, allowedChannels(country, band, width));
      const power = Math.min(set?.power ?? DEFAULT_TX_POWER, maxPowerFor(country, band, channel));
      out.push({ band, channel, width, power });
    }
    return out;
  }

  /** Radios on the air: none while the device is down (rebooting, upgrading, no SSID up). */
  private radioTuning(): RadioTuning[] {
    return this.ssids().length ? this.effectiveRadios() : [];
  }

  get store(): ConfigStore {
    return this.options.store;
  }

  get revision(): number {
    return this.store.data.revision;
  }

  /** Powers the device on: a new boot, Wi-Fi up. */
  async start(link: Link): Promise<void> {
    this.link = link;
    await this.boot();
    if (this.ap) {
      this.options.world.register(this.ap);
      this.onAir = JSON.stringify(this.runningWifi());
      const t = setInterval(() => this.checkWifiSchedule(), scaledMs(60, this.options.timeScale));
      t.unref();
      this.scheduleTimer = t;
    }
    if (this.ap && this.options.radio) {
      this.options.radio.world.register({
        sn: this.sn,
        mac: this.options.mac,
        position: this.options.radio.position,
        radios: () => this.radioTuning(),
        clients: (band) => this.options.world.clientsOf(this.sn).filter((c) => c.band === band).length,
      });
    }
  }

  private scheduleTimer: NodeJS.Timeout | null = null;

  private async boot(): Promise<void> {
    this.bootId = randomBytes(8).toString('hex');
    this.bootedAt = Date.now();
    this.options.live.reboot();
    await this.store.update({ bootCount: this.store.data.bootCount + 1 });
    await this.refreshHash();
  }

  /** configHash of the running document, reported in hello and state (cached: hashing is async). */
  configHash: string | undefined;

  private async refreshHash(): Promise<void> {
    this.configHash = await configHash(this.store.document);
  }

  /** Test hook: documents are refused with this code (and message) until it is cleared with null. */
  refuseConfig: { code: number; message?: string } | null = null;

  /**
   * Test hook: someone changed the running configuration on the device itself (drift): the
   * document changes, the revision stays, the reported hash shows it.
   */
  async drift(change: Record<string, unknown>): Promise<void> {
    await this.store.update({ document: { ...this.store.document, ...change } });
    await this.refreshHash();
    this.publishState();
  }

  // ── connection ───────────────────────────────────────────────────────────

  /** Called by the link after every (re)connection: announce, report, and start telemetry. */
  onConnected(): void {
    if (this.stopped) return;
    this.publish('hello', this.hello());
    this.publishState();
    this.publishTelemetry();
    if (!this.telemetryTimer) {
      this.telemetryTimer = setInterval(() => this.publishTelemetry(), this.options.telemetryMs);
      this.telemetryTimer.unref();
    }
  }

  onDisconnected(): void {
    if (this.telemetryTimer) clearInterval(this.telemetryTimer);
    this.telemetryTimer = null;
  }

  private publish(kind: UpKind, payload: object): void {
    this.link?.publish(kind, payload);
  }

  hello(): Hello {
    const d = this.store.data;
    const mesh = this.options.live.meshRole;
    return {
      sn: this.sn,
      model: this.info.model,
      type: this.info.type,
      firmware: d.firmware,
      hardware: 'V1.0',
      capabilities: [...this.info.capabilities],
      mac: this.options.mac,
      ip: this.runningIp(),
      mode: d.mode,
      revision: d.revision,
      ...(this.configHash ? { configHash: this.configHash } : {}),
      uptime: Math.floor((Date.now() - this.bootedAt) / 1000),
      bootId: this.bootId,
      ...(mesh
        ? {
            meshRole: mesh,
            deviceMode: mesh === CableFreeMode.PRIMARY ? DeviceMode.ROUTER : DeviceMode.WIFI_EXTEND,
          }
        : {}),
      ...(d.cpeMode ? { cpeMode: d.cpeMode } : {}),
      protocol: 1,
      ...(this.link?.connectedAt ? { connectedAt: this.link.connectedAt } : {}),
      ts: Date.now(),
    };
  }

  /** The switch's static IP when its configuration sets one, else the address it was given. */
  runningIp(): string {
    const ip = this.store.document.switch?.ip;
    return ip?.mode === 'static' && ip.ip ? ip.ip : this.options.ip;
  }

  state(): LiveState {
    const d = this.store.data;
    const failed = d.failed && d.failed.revision > d.revision ? d.failed : null;
    return {
      status: this.status,
      revision: d.revision,
      ...(this.configHash ? { configHash: this.configHash } : {}),
      configStatus:
        this.operation === DeviceOperation.APPLY_CONFIG
          ? ConfigStatus.APPLYING
          : failed
            ? ConfigStatus.FAILED
            : ConfigStatus.APPLIED,
      ...(failed ? { failedRevision: failed.revision, configCode: failed.code } : {}),
      mode: d.mode,
      operation: this.operation,
      ...(this.progress !== undefined ? { progress: this.progress } : {}),
      remote: { state: this.remoteState },
      ts: Date.now(),
    };
  }

  publishState(): void {
    this.publish('state', this.state());
  }

  telemetry(): Telemetry {
    const now = Date.now();
    const doc = this.store.document;
    const portEvents: { event: 'port-up' | 'port-down' | 'poe-overload'; port: number }[] = [];
    const t = this.options.live.build(
      {
        now,
        bootedAt: this.bootedAt,
        clients: this.ap ? this.options.world.clientsOf(this.sn) : [],
        siteClients: this.options.world.online().length,
        led: this.store.data.led,
        locating: this.locatingUntil > now,
        rateLimit: this.store.data.rateLimit,
        clientLimits: this.store.data.clientLimits,
        radios: this.effectiveRadios(),
        ...(this.options.radio
          ? {
              air: (radio: RadioTuning) => {
                const world = this.options.radio!.world;
                return {
                  neighbours: world.scan(this.sn, radio.band),
                  noise: world.noiseAt(this.sn, radio),
                  busy: world.busyAt(this.sn, radio),
                };
              },
            }
          : {}),
        switchPorts: doc.switch?.ports,
        dhcpServer: doc.dhcpServer?.enabled ? { poolSize: dhcpPoolSize(doc.dhcpServer) } : null,
      },
      portEvents,
    );
    if (this.ap) t.ssids = this.runningWifi();
    for (const e of portEvents) {
      if (e.event === 'poe-overload') {
        this.emitEvent(
          'poe-overload',
          'critical',
          `PoE budget of ${this.info.poeBudget} W exceeded: port ${e.port} is not powered`,
          { port: e.port },
        );
      } else {
        this.emitEvent(
          e.event,
          e.event === 'port-down' ? 'warning' : 'info',
          `Port ${e.port} link ${e.event === 'port-up' ? 'up' : 'down'}`,
          { port: e.port },
        );
      }
    }
    return t;
  }

  publishTelemetry(): void {
    if (!this.link?.connected || this.stopped) return;
    this.publish('telemetry', this.telemetry());
  }

  /**
   * Another host answered ARP for this device's own address (a gratuitous ARP from a client with a
   * static IP): real devices log it as a warning and keep their address.
   */
  reportIpConflict(otherMac: string): void {
    this.emitEvent('ip-conflict', 'warning', `IP address ${this.options.ip} is also used by ${otherMac}`, {
      ip: this.options.ip,
      mac: otherMac,
    });
  }

  emitEvent(
    event: DeviceEventName,
    level: EventLevel,
    message: string,
    data?: Record<string, unknown>,
  ): void {
    this.publish('event', {
      id: `${this.bootId}-${++this.eventSeq}`,
      ts: Date.now(),
      event,
      level,
      message,
      ...(data ? { data } : {}),
    });
  }

  private ssids(): string[] {
    return [...new Set(this.runningWifi().map((w) => w.ssid))];
  }

  /** The device's clock (simulated in tests). */
  now(): number {
    return this.options.clock?.() ?? Date.now();
  }

  /**
   * The networks on the air now, each on its bands: none while the radio is down; without a Wi-Fi
   * section (never configured) the factory SSID; else every enabled network of the document but
   * those whose timer shutdown covers the time of day in the document's time zone (the project's).
   */
  runningWifi(): { ssid: string; bands: FrequencyBand[] }[] {
    const up =
      this.status === DeviceStatus.ONLINE ||
      this.status === DeviceStatus.ONLINE_NOT_SAVED ||
      this.status === DeviceStatus.UPGRADE_DONE;
    if (!up || this.stopped || this.store.data.cpeMode === CpeMode.CLIENT) return [];
    const doc = this.store.document;
    if (!doc.wifi) return [{ ssid: `Beacon-${this.sn.slice(-4)}`, bands: [...this.info.bands] }];
    const minute = this.minuteOfDay(doc.timeZone);
    return doc.wifi
      .filter((w) => w.enabled && !inTimerShutdown(w.schedule, minute))
      .map((w) => ({ ssid: w.ssid, bands: [...w.bands] }));
  }

  private minuteOfDay(zone: string | undefined): number {
    const at = new Date(this.now());
    if (!zone) return at.getUTCHours() * 60 + at.getUTCMinutes();
    try {
      const p = zonedParts(at, zone);
      return p.hour * 60 + p.minute;
    } catch {
      return at.getUTCHours() * 60 + at.getUTCMinutes();
    }
  }

  private onAir = '';

  /**
   * Checked every simulated minute and after each applied configuration: when the networks on the
   * air changed (a timer shutdown began or ended), clients of a network gone leave and the next
   * telemetry says so at once.
   */
  private checkWifiSchedule(): void {
    if (!this.ap || this.stopped) return;
    const now = JSON.stringify(this.runningWifi());
    if (now === this.onAir) return;
    const before = this.onAir;
    this.onAir = now;
    if (before === '') return;
    this.options.world.enforce(this.sn);
    this.publishTelemetry();
  }

  /** The configuration's client blacklist (decision 0035): these MACs may not join. */
  private refuses(mac: string): boolean {
    const list = this.store.document.clientBlacklist;
    return Boolean(list?.length && list.some((m) => m.toUpperCase() === mac.toUpperCase()));
  }

  private onClient(event: 'joined' | 'left' | 'roamed', s: Station, from?: string): void {
    if (!this.options.clientEvents || !this.link?.connected) return;
    const name = event === 'joined' ? 'client-joined' : event === 'left' ? 'client-left' : 'client-roamed';
    const text =
      event === 'roamed'
        ? `${s.name} roamed here from ${from}`
        : `${s.name} ${event === 'joined' ? 'joined' : 'left'} ${s.ssid ?? ''}`.trim();
    this.emitEvent(name, 'info', text, { mac: s.mac, name: s.name, ...(from ? { from } : {}) });
    // Now and then a joining client was set up by hand with the device's own address (a static IP
    // copied from a label): the device sees its ARP and logs the conflict, as real firmware does.
    if (event === 'joined' && Math.random() < IP_CONFLICT_CHANCE) this.reportIpConflict(s.mac);
  }

  // ── timers ───────────────────────────────────────────────────────────────

  /** Runs `fn` after a SPEC.md §9 duration, scaled. */
  private after(seconds: number, fn: () => void | Promise<void>): void {
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        if (this.stopped) return;
        Promise.resolve(fn()).catch((e) => this.options.log(`timer failed: ${(e as Error).message}`));
      },
      scaledMs(seconds, this.options.timeScale),
    );
    this.timers.add(t);
  }

  private wait(seconds: number): Promise<void> {
    return new Promise((resolve) => this.after(seconds, resolve));
  }

  // ── commands ─────────────────────────────────────────────────────────────

  /** A raw command payload from `dev/{sn}/down/cmd`. */
  async onMessage(payload: Buffer | string): Promise<void> {
    const text = payload.toString();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const id = /"id"\s*:\s*"([^"]{1,64})"/.exec(text)?.[1];
      if (id) this.reply(id, Codes.JSON, 'The command is not valid JSON');
      return;
    }
    const parsed = commandSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown })?.id;
      if (typeof id === 'string' && id.length > 0 && id.length <= 64) {
        const name = (json as { name?: unknown }).name;
        if (!COMMAND_NAMES.includes(name as CommandName)) {
          this.reply(id, Codes.FORM_DATA, `Unknown command ${String(name).slice(0, 64)}`);
          return;
        }
        const failure = failureFromZod(parsed.error);
        this.reply(
          id,
          failure.code,
          failure.message,
          failure.fields ? { fields: failure.fields } : undefined,
        );
      }
      return;
    }
    await this.execute(parsed.data);
  }

  private reply(id: string, code: number, message?: string, data?: Record<string, unknown>): void {
    const reply: Reply = {
      id,
      code,
      ...(code !== 0 || message ? { message: (message ?? errorMessage(code)).slice(0, 256) } : {}),
      ...(data ? { data } : {}),
      ts: Date.now(),
    };
    this.inFlight.delete(id);
    this.replies.set(id, reply);
    if (this.replies.size > 200) this.replies.delete(this.replies.keys().next().value!);
    this.publish('reply', reply);
  }

  /** Carries out one command; every command gets exactly one reply. */
  async execute(cmd: Command): Promise<void> {
    const done = this.replies.get(cmd.id);
    if (done) {
      this.publish('reply', done);
      return;
    }
    if (this.inFlight.has(cmd.id)) return;
    if (cmd.expiresAt !== undefined && Date.now() > cmd.expiresAt) {
      this.reply(cmd.id, COMMAND_EXPIRED, 'The command arrived after it expired');
      return;
    }
    const code = admitCommand(
      { info: this.info, status: this.status, operation: this.operation, mode: this.store.data.mode },
      cmd.name,
    );
    if (code !== 0) {
      this.reply(cmd.id, code);
      return;
    }
    this.inFlight.add(cmd.id);
    try {
      await this.dispatch(cmd);
    } catch (e) {
      this.options.log(`${cmd.name} failed: ${(e as Error).message}`);
      if (this.inFlight.has(cmd.id)) this.reply(cmd.id, Codes.SET_FAILED, (e as Error).message);
    }
  }

  private async dispatch(cmd: Command): Promise<void> {
    switch (cmd.name) {
      case 'reboot':
        this.reply(cmd.id, 0);
        this.restart(DeviceOperation.REBOOT, LIMITS.REBOOT_SECONDS);
        return;
      case 'reset':
        this.reply(cmd.id, 0);
        await this.store.reset(this.info);
        await this.refreshHash();
        this.restart(DeviceOperation.RESET, LIMITS.RESET_SECONDS, () =>
          this.emitEvent('reset-done', 'info', 'Factory settings restored'),
        );
        return;
      case 'upgrade':
        return this.upgrade(cmd);
      case 'set-password':
        await this.store.update({ passwordHash: sha256Hex(cmd.params.password) });
        this.reply(cmd.id, 0);
        this.emitEvent('password-changed', 'info', 'The device password was changed');
        return;
      case 'locate':
        this.locatingUntil = Date.now() + scaledMs(cmd.params.seconds, this.options.timeScale);
        this.reply(cmd.id, 0, undefined, { until: this.locatingUntil });
        this.publishTelemetry();
        return;
      case 'led':
        await this.store.update({ led: cmd.params.on });
        this.reply(cmd.id, 0);
        this.publishTelemetry();
        return;
      case 'rate-limit': {
        const { upKbps, downKbps, clientMac } = cmd.params;
        const limit = upKbps === 0 && downKbps === 0 ? null : { upKbps, downKbps };
        if (clientMac) {
          const clientLimits = { ...this.store.data.clientLimits };
          if (limit) clientLimits[clientMac.toUpperCase()] = limit;
          else delete clientLimits[clientMac.toUpperCase()];
          await this.store.update({ clientLimits });
        } else {
          await this.store.update({ rateLimit: limit });
        }
        this.reply(cmd.id, 0);
        return;
      }
      case 'poe-reboot':
        return this.poeReboot(cmd);
      case 'set-mode':
        return this.setMode(cmd);
      case 'local-management': {
        const mode = cmd.params.enabled ? ManagementMode.LOCAL : ManagementMode.CLOUD;
        await this.store.update({ mode });
        this.reply(cmd.id, 0);
        this.publishState();
        this.emitEvent(
          'management-mode',
          'info',
          mode === ManagementMode.LOCAL ? 'Local management mode on' : 'Cloud management mode on',
        );
        return;
      }
      case 'remote-management-open':
        return this.openRemote(cmd);
      case 'remote-management-close':
        await this.closeRemote();
        this.reply(cmd.id, 0);
        this.publishState();
        return;
      case 'apply-config':
        return this.applyConfig(cmd);
      case 'get-config': {
        // What the device runs, with its own hash of it: a backup is this document (decision 0049).
        const document = this.store.document;
        this.reply(cmd.id, 0, undefined, {
          revision: this.revision,
          hash: await configHash(document),
          document,
        });
        return;
      }
      case 'route-table':
        this.reply(cmd.id, 0, undefined, {
          revision: this.revision,
          routes: routeTableOf(this.store.document),
        });
        return;
      case 'kick-client': {
        // Held off for 10 minutes (scaled), as a real AP keeps a kicked client away for a while.
        const ok = this.options.world.kick(this.sn, cmd.params.mac, 600_000 * this.options.timeScale);
        this.reply(
          cmd.id,
          ok ? 0 : Codes.NOT_FOUND,
          ok ? undefined : 'The client is not online on this device',
        );
        return;
      }
    }
  }

  /** Reboot-like: state 8 for `seconds`, then a new boot with hello and state 1. */
  private restart(operation: DeviceOperation, seconds: number, afterBoot?: () => void): void {
    this.operation = operation;
    this.status = DeviceStatus.REBOOTING;
    this.options.world.dropAll(this.sn);
    void this.closeRemote();
    this.publishState();
    this.after(seconds, async () => {
      await this.boot();
      this.status = DeviceStatus.ONLINE;
      this.operation = null;
      this.publish('hello', this.hello());
      this.publishState();
      this.emitEvent('booted', 'info', `Device started (${operation})`, { operation });
      afterBoot?.();
      this.publishTelemetry();
    });
  }

  private async upgrade(cmd: CommandOf<'upgrade'>): Promise<void> {
    const from = this.store.data.firmware;
    const to = cmd.params.version;
    const check = upgradeCheck(this.info, from, to);
    if (check !== 0) {
      this.reply(cmd.id, check);
      return;
    }
    this.reply(cmd.id, 0, undefined, { from, to });
    this.operation = DeviceOperation.UPGRADE;
    this.status = DeviceStatus.UPLOADING;
    this.progress = 0;
    this.publishState();

    const failure = await this.download(cmd.params);
    if (failure) {
      // The code says which check failed (5460-5464); the server records it as the upgrade's
      // outcome. The event goes before the upload-failed state, so the specific code comes first.
      this.emitEvent('upgrade-failed', 'warning', `Upgrade to ${to} failed: ${failure.message}`, {
        from,
        to,
        code: failure.code,
      });
      this.status = DeviceStatus.UPLOAD_FAILED;
      this.progress = undefined;
      this.publishState();
      this.after(5, () => {
        this.status = DeviceStatus.ONLINE;
        this.operation = null;
        this.publishState();
      });
      return;
    }
    this.status = DeviceStatus.UPLOAD_SUCCESS;
    this.progress = 100;
    this.publishState();
    await this.wait(2);
    this.status = DeviceStatus.UPGRADING;
    this.progress = undefined;
    this.publishState();
    this.options.world.dropAll(this.sn);
    await this.closeRemote();
    // Writing flash: the device is offline for the upgrade (SPEC.md §9) and leaves cleanly (no will).
    await this.link?.suspend();
    await this.wait(LIMITS.UPGRADE_SECONDS);
    await this.store.update({ firmware: to });
    await this.boot();
    this.status = DeviceStatus.UPGRADE_DONE;
    this.operation = null;
    this.link?.resume();
    this.emitEvent('upgrade-done', 'info', `Upgraded from ${from} to ${to}`, { from, to });
    this.after(UPGRADE_DONE_SECONDS, () => {
      if (this.status !== DeviceStatus.UPGRADE_DONE) return;
      this.status = DeviceStatus.ONLINE;
      this.publishState();
    });
  }

  /**
   * Fetches the image when a URL is given and checks it before anything is written (docs/decisions/0061):
   * its size, its SHA-256, its header (this model, the command's version) and the Ed25519 signature
   * of the statement, with the public key the device was built with. Without a URL it pretends (a
   * catalogue version from the maker). Answers the failed check (code and text) or null.
   */
  private async download(
    params: CommandOf<'upgrade'>['params'],
  ): Promise<{ code: ErrorCode; message: string } | null> {
    const failed = (code: ErrorCode, message: string): { code: ErrorCode; message: string } => ({
      code,
      message,
    });
    if (!params.url) {
      await this.wait(UPGRADE_DOWNLOAD_SECONDS / 2);
      this.progress = 50;
      this.publishState();
      await this.wait(UPGRADE_DOWNLOAD_SECONDS / 2);
      return null;
    }
    if (params.size === undefined || !params.sha256 || !params.signature)
      return failed(FIRMWARE_CHECK_CODES.SIGNATURE, 'the command names no size, checksum and signature');
    let body: Uint8Array;
    try {
      const res = await fetch(params.url, { signal: AbortSignal.timeout(120_000), redirect: 'error' });
      if (!res.ok) return failed(FIRMWARE_CHECK_CODES.DOWNLOAD, `download answered HTTP ${res.status}`);
      body = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      return failed(FIRMWARE_CHECK_CODES.DOWNLOAD, `download failed: ${(e as Error).message}`);
    }
    if (body.length !== params.size)
      return failed(FIRMWARE_CHECK_CODES.SIZE, 'the image size does not match');
    const sha256 = sha256Hex(body);
    if (sha256 !== params.sha256)
      return failed(FIRMWARE_CHECK_CODES.CHECKSUM, 'the image checksum does not match');
    const header = parseFirmwareHeader(body);
    if (!header || header.model !== this.info.model || header.version !== params.version)
      return failed(FIRMWARE_CHECK_CODES.HEADER, 'the image is for another model or version');
    const facts = { model: this.info.model, version: params.version, size: body.length, sha256 };
    const key = this.options.firmwareKey ?? DEV_FIRMWARE_PUBLIC_KEY;
    if (!(await verifyFirmware(key, facts, params.signature)))
      return failed(FIRMWARE_CHECK_CODES.SIGNATURE, 'the image signature is not valid');
    return null;
  }

  private async poeReboot(cmd: CommandOf<'poe-reboot'>): Promise<void> {
    const ports = [...new Set(cmd.params.ports)];
    for (const id of ports) {
      const spec = this.info.ports.find((p) => p.id === id);
      if (!spec?.poe) {
        this.reply(cmd.id, Codes.FORM_DATA, `Port ${id} is not a PoE port`);
        return;
      }
      if (this.options.live.isCycling(id)) {
        this.reply(cmd.id, Codes.REPEATED_CLICKS, `Port ${id} is already restarting`);
        return;
      }
    }
    const until = Date.now() + scaledMs(LIMITS.POE_REBOOT_SECONDS, this.options.timeScale);
    this.options.live.powerCycle(ports, until);
    this.reply(cmd.id, 0, undefined, { ports, until });
    this.emitEvent('poe-reboot', 'info', `PoE restarted on port ${ports.join(', ')}`, { ports });
    this.publishTelemetry();
    this.after(LIMITS.POE_REBOOT_SECONDS, () => this.publishTelemetry());
  }

  private async setMode(cmd: CommandOf<'set-mode'>): Promise<void> {
    const mode = cmd.params.mode;
    if (this.store.data.cpeMode === mode) {
      this.reply(cmd.id, 0, undefined, { changed: false });
      return;
    }
    // Switching clears the bridge group (SPEC.md §4) and restarts the device.
    const { bridge: _bridge, ...document } = this.store.document as Record<string, unknown>;
    await this.store.update({ cpeMode: mode, document });
    this.reply(cmd.id, 0, undefined, { changed: true });
    this.restart(DeviceOperation.MODE_SWITCH, LIMITS.MODE_SWITCH_SECONDS, () =>
      this.emitEvent('mode-switched', 'info', `CPE now in ${mode} mode`, { mode }),
    );
  }

  private async applyConfig(cmd: CommandOf<'apply-config'>): Promise<void> {
    const { revision, document } = cmd.params;
    // The same revision with other content (the device drifted) is applied again.
    if (revision === this.revision && canonicalJson(document) === canonicalJson(this.store.document)) {
      this.reply(cmd.id, 0, undefined, { revision, changed: false });
      return;
    }
    const failure = this.refuseConfig
      ? {
          ...this.refuseConfig,
          message: this.refuseConfig.message ?? errorMessage(this.refuseConfig.code),
          path: undefined,
        }
      : validateDeviceConfig(document, this.info);
    if (failure) {
      await this.store.update({ failed: { revision, code: failure.code, message: failure.message } });
      this.reply(
        cmd.id,
        failure.code,
        failure.message,
        failure.path ? { revision, path: failure.path } : { revision },
      );
      this.publishState();
      this.emitEvent(
        'config-failed',
        'warning',
        `Configuration revision ${revision} refused: ${failure.message}`,
        {
          revision,
          code: failure.code,
        },
      );
      return;
    }
    const ipBefore = this.runningIp();
    const countryBefore = this.store.document.country ?? DEFAULT_WIFI_COUNTRY;
    // Running but not yet saved (status 7) for the §9 save time, then saved and reported.
    this.operation = DeviceOperation.APPLY_CONFIG;
    this.status = DeviceStatus.ONLINE_NOT_SAVED;
    this.publishState();
    await this.wait(between(Math.random, LIMITS.CONFIG_SAVE_MIN_SECONDS, LIMITS.CONFIG_SAVE_MAX_SECONDS));
    await this.store.update({
      revision,
      document,
      failed: null,
      // Settings the document carries besides the network: the admin password and the LEDs.
      ...(document.admin?.password ? { passwordHash: sha256Hex(document.admin.password) } : {}),
      ...(typeof document.led === 'boolean' ? { led: document.led } : {}),
    });
    await this.refreshHash();
    // Clients now on the blacklist, or of a network gone, are dropped at once.
    if (this.ap) {
      this.onAir = JSON.stringify(this.runningWifi());
      this.options.world.enforce(this.sn);
    }
    this.operation = null;
    this.status = DeviceStatus.ONLINE;
    this.reply(cmd.id, 0, undefined, { revision });
    // A new management address is announced like after a boot (the hello carries the IP).
    if (this.runningIp() !== ipBefore) this.publish('hello', this.hello());
    this.publishState();
    // Port and PoE settings show in the next report at once.
    this.publishTelemetry();
    this.emitEvent('config-applied', 'info', `Configuration revision ${revision} applied`, { revision });
    if (this.ap && (document.country ?? DEFAULT_WIFI_COUNTRY) !== countryBefore) this.adaptRadios();
  }

  /**
   * A new country or region: the radios re-adapt (SPEC.md §4, §9 about 3 minutes, scaled), reported
   * as the rf-adapt operation with its progress in tenths; automatic radios then pick their channels
   * again among the new country's. The device takes no other command meanwhile (busy, 2010).
   */
  private adaptRadios(): void {
    this.operation = DeviceOperation.RF_ADAPT;
    this.progress = 0;
    this.publishState();
    const step = (done: number) => {
      if (this.operation !== DeviceOperation.RF_ADAPT) return;
      if (done < 100) {
        this.progress = done;
        this.publishState();
        this.after(LIMITS.COUNTRY_CHANGE_SECONDS / 10, () => step(done + 10));
        return;
      }
      this.options.live.forgetChannels();
      this.operation = null;
      this.progress = undefined;
      this.publishState();
      this.publishTelemetry();
    };
    this.after(LIMITS.COUNTRY_CHANGE_SECONDS / 10, () => step(10));
  }

  private async openRemote(cmd: CommandOf<'remote-management-open'>): Promise<void> {
    await this.closeRemote();
    const token = randomBytes(16).toString('hex');
    const expiresAt = Date.now() + cmd.params.ttlSeconds * 1000;
    // Nothing listens: the page is served through the tunnel over this device's own link.
    const session = new RemoteSession(token, expiresAt);
    this.remote = session;
    this.remoteState = RemoteManageState.OPEN;
    const t = setTimeout(() => {
      if (this.remote === session) void this.closeRemote().then(() => this.publishState());
    }, cmd.params.ttlSeconds * 1000);
    t.unref();
    this.reply(cmd.id, 0, undefined, { token, expiresAt, path: '/' });
    this.publishState();
  }

  private async closeRemote(): Promise<void> {
    this.remote = null;
    this.remoteState = RemoteManageState.CLOSED;
  }

  /** A request of the remote-management tunnel (`dev/{sn}/down/http`): answered while a session is open. */
  onTunnel(payload: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = tunnelRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const rid = (raw as { rid?: unknown } | null)?.rid;
      if (typeof rid === 'string' && rid.length > 0 && rid.length <= 64)
        for (const piece of badTunnelRequest(rid)) this.link?.publishTunnel(piece);
      return;
    }
    const request = parsed.data;
    const session = this.remote;
    const pieces = session
      ? session.answer(request, () => this.page())
      : new RemoteSession('', 0).answer(request, () => '');
    for (const piece of pieces) this.link?.publishTunnel(piece);
  }

  private page(): string {
    const h = this.hello();
    const t = this.telemetry();
    const rows = [
      ['Serial number', h.sn],
      ['Model', h.model],
      ['Type', h.type],
      ['Firmware', h.firmware],
      ['MAC', h.mac],
      ['IP', h.ip],
      ['Status', String(this.status)],
      ['Configuration revision', String(h.revision)],
      ['Uptime (s)', String(t.uptime)],
      ['Clients', String(t.clientCount)],
      ['CPU', `${t.cpu} %`],
      ['Memory', `${t.memory} %`],
    ];
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(h.model)} ${escapeHtml(h.sn)}</title></head><body><h1>${escapeHtml(h.model)} local management</h1><table>${rows
      .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('')}</table></body></html>`;
  }

  /** Stops every timer and leaves the site; the device is gone. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scheduleTimer) clearInterval(this.scheduleTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.onDisconnected();
    if (this.ap) this.options.world.unregister(this.sn);
    this.options.radio?.world.unregister(this.sn);
    await this.closeRemote();
  }
}
