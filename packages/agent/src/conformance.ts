import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import {
  buildFirmwareImage,
  COMMAND_RULES,
  Codes,
  type CommandName,
  compareVersions,
  DEV_FIRMWARE_SEED,
  deriveDeviceSecret,
  deviceEventSchema,
  downTopic,
  hasCapability,
  helloSchema,
  isDeviceTopicAllowed,
  liveStateSchema,
  type ModelInfo,
  makeCommand,
  modelInfo,
  replySchema,
  signFirmware,
  telemetrySchema,
  topicRoot,
  tunnelDownTopic,
  tunnelResponseSchema,
  validateDeviceConfig,
} from '@beacon/protocol';
import { Aedes } from 'aedes';

/**
 * The conformance kit (`npm run conformance -- --url mqtt://host:port --sn SN --key FACTORY_KEY`):
 * a bench that stands where the Beacon server stands. It runs its own MQTT broker on the URL's port,
 * admits the device only with the secret derived from the factory key, and drives it through hello,
 * state, telemetry, every command its model has, a configuration with a refusal, an upgrade with a
 * bad checksum and a good one (images served by the kit, signed with the firmware seed) and a
 * remote-management session through the device-opened tunnel. Each step prints pass or fail.
 * docs/protocol/device-guide.md#conformance-kit
 */

export interface ConformanceOptions {
  url: string;
  sn: string;
  /** The factory key the device's secret derives from. */
  key: string;
  /** Ed25519 seed the device's firmware public key belongs to (default the development seed). */
  firmwareSeed?: string;
  /** Host the device reaches the kit's firmware server at (default the URL's host). */
  httpHost?: string;
  /** Leave out reboot, reset and the good upgrade (they take minutes on real hardware). */
  skipRestarts?: boolean;
  /** Multiplies the SPEC.md §9 durations the kit waits for (a simulator's --time-scale). */
  timeScale?: number;
  /** How long to wait for the device to connect, ms. */
  connectTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface StepResult {
  step: string;
  ok: boolean;
  detail: string;
}

interface Up {
  kind: string;
  payload: unknown;
  at: number;
}

class Bench {
  readonly ups: Up[] = [];
  private waiters: (() => void)[] = [];
  connected = false;
  cleanDisconnects = 0;
  wills = 0;
  authFailures: string[] = [];
  subscriptions = new Set<string>();

  constructor(
    readonly aedes: Aedes,
    readonly sn: string,
  ) {}

  record(kind: string, payload: unknown) {
    this.ups.push({ kind, payload, at: Date.now() });
    this.wake();
  }

  wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The first message (from index `from`) matching, within `ms`. */
  async next(match: (u: Up) => boolean, ms: number, from = 0): Promise<Up | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.ups.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async until(condition: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  }

  publish(topic: string, payload: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.aedes.publish(
        { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  }
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export async function runConformance(o: ConformanceOptions): Promise<StepResult[]> {
  const log = o.log ?? ((line: string) => console.log(line));
  const scale = o.timeScale ?? 1;
  const results: StepResult[] = [];
  const step = (name: string, ok: boolean, detail = '') => {
    results.push({ step: name, ok, detail });
    log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` — ${detail}` : ''}`);
    return ok;
  };
  const url = new URL(o.url);
  const sn = o.sn;
  const secret = await deriveDeviceSecret(o.key, sn);
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const given = Buffer.from(password ?? '');
      const ok =
        username === sn &&
        client.id === sn &&
        given.length === secret.length &&
        timingSafeEqual(given, Buffer.from(secret));
      if (!ok) bench.authFailures.push(`${client.id}/${username}`);
      done(ok ? null : Object.assign(new Error('bad credentials'), { returnCode: 4 }), ok);
    },
    authorizePublish: (client, packet, done) =>
      !client || isDeviceTopicAllowed(client.id, packet.topic, 'publish')
        ? done(null)
        : done(new Error(`may not publish ${packet.topic}`)),
    authorizeSubscribe: (client, sub, done) => {
      if (!isDeviceTopicAllowed(client.id, sub.topic, 'subscribe')) return done(null, null);
      bench.subscriptions.add(sub.topic);
      done(null, sub);
    },
  });
  const bench = new Bench(aedes, sn);
  aedes.on('publish', (packet, client) => {
    const parts = packet.topic.split('/');
    if (parts[0] !== topicRoot() || parts[1] !== sn || parts[2] !== 'up') return;
    if (!client && !packet.topic.endsWith('/state')) return;
    let payload: unknown;
    try {
      payload = JSON.parse(packet.payload.toString());
    } catch {
      payload = undefined;
    }
    if (!client) bench.wills++;
    bench.record(parts[3], payload);
  });
  aedes.on('client', () => {
    bench.connected = true;
    bench.wake();
  });
  aedes.on('clientDisconnect', () => {
    bench.connected = false;
    bench.cleanDisconnects++;
    bench.wake();
  });
  const sockets = new Set<net.Socket>();
  const broker = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    aedes.handle(socket);
  });
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    broker.once('error', reject);
    broker.listen(Number(url.port || 1883), host, resolve);
  });
  // The firmware images the kit serves: path → bytes.
  const images = new Map<string, Uint8Array>();
  const files = http.createServer((req, res) => {
    const body = images.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, host, resolve));
  const filesBase = `http://${o.httpHost ?? url.hostname}:${(files.address() as AddressInfo).port}`;
  log(`conformance kit: broker on ${o.url}, firmware on ${filesBase}; waiting for ${sn}`);

  let seq = 0;
  const send = async (
    name: CommandName,
    params: Record<string, unknown>,
    extra: { expiresAt?: number } = {},
  ) => {
    const id = `conf-${Date.now()}-${++seq}`;
    const from = bench.ups.length;
    await bench.publish(
      downTopic(sn),
      JSON.stringify(
        makeCommand(name, params as never, id, { expiresAt: extra.expiresAt ?? Date.now() + 60_000 }),
      ),
    );
    return { id, from };
  };
  const replyTo = async (id: string, from: number, ms = 30_000) => {
    const up = await bench.next(
      (u) => u.kind === 'reply' && (u.payload as { id?: string })?.id === id,
      ms,
      from,
    );
    return up ? (up.payload as { code: number; message?: string; data?: Record<string, unknown> }) : null;
  };
  const command = async (name: CommandName, params: Record<string, unknown>, ms = 30_000) => {
    const { id, from } = await send(name, params);
    return { reply: await replyTo(id, from, ms), from };
  };
  const restartMs = (seconds: number) => Math.max(10_000, seconds * 1000 * scale * 3 + 10_000);

  try {
    // ── connection
    const came = await bench.until(() => bench.connected, o.connectTimeoutMs ?? 120_000);
    step(
      'credentials: username = client id = SN, password = derived secret',
      came,
      came ? '' : `refused: ${bench.authFailures.join(', ') || 'no connection'}`,
    );
    if (!came) return results;
    const hello = await bench.next((u) => u.kind === 'hello', 30_000);
    const h = helloSchema.safeParse(hello?.payload);
    step(
      'hello: valid, own SN',
      h.success && h.data.sn === sn,
      h.success ? `${h.data.model} ${h.data.firmware}` : 'missing or invalid',
    );
    step(
      'subscriptions: dev/{sn}/down/cmd and dev/{sn}/down/http',
      bench.subscriptions.has(downTopic(sn)) && bench.subscriptions.has(tunnelDownTopic(sn)),
      [...bench.subscriptions].join(', '),
    );
    const state = await bench.next((u) => u.kind === 'state', 30_000);
    const s = liveStateSchema.safeParse(state?.payload);
    step(
      'state: valid, online (1)',
      s.success && s.data.status === 1,
      s.success ? `status ${s.data.status}` : 'missing or invalid',
    );
    const tele = await bench.next((u) => u.kind === 'telemetry', 60_000);
    step(
      'telemetry: valid',
      telemetrySchema.safeParse(tele?.payload).success,
      tele ? '' : 'none within 60 s',
    );
    if (!h.success) return results;
    const info: ModelInfo | undefined = modelInfo(h.data.model);
    step(
      'model: in the catalogue',
      info !== undefined,
      info ? info.type : `${h.data.model} unknown: capabilities from its hello`,
    );
    const can = (name: CommandName) => {
      const cap = COMMAND_RULES[name].capability;
      return !cap || (info ? hasCapability(info, cap) : h.data.capabilities.includes(cap));
    };

    // ── protocol rules
    {
      const id = `conf-bad-${++seq}`;
      const from = bench.ups.length;
      await bench.publish(downTopic(sn), `{"id":"${id}","name":"locate",`);
      const r = await replyTo(id, from, 15_000);
      step('malformed JSON answers 19', r?.code === Codes.JSON, `code ${r?.code}`);
    }
    {
      const unknown = `conf-unknown-${++seq}`;
      const from = bench.ups.length;
      await bench.publish(downTopic(sn), JSON.stringify({ id: unknown, name: 'self-destruct', params: {} }));
      const r = await replyTo(unknown, from, 15_000);
      step('an unknown command answers 16', r?.code === Codes.FORM_DATA, `code ${r?.code}`);
    }
    {
      const { id, from } = await send('locate', { seconds: 5 }, { expiresAt: Date.now() - 1000 });
      const r = await replyTo(id, from, 15_000);
      step('a command past its expiresAt answers 5025', r?.code === Codes.COMMAND_TIMEOUT, `code ${r?.code}`);
    }
    {
      const { id, from } = await send('locate', { seconds: 5 });
      const first = await replyTo(id, from);
      const again = bench.ups.length;
      await bench.publish(downTopic(sn), JSON.stringify(makeCommand('locate', { seconds: 5 }, id)));
      const second = await replyTo(id, again);
      step(
        'locate: 0; a repeated id gets the same reply',
        first?.code === 0 && second?.code === first?.code,
        `codes ${first?.code}/${second?.code}`,
      );
    }

    // ── every command of the model
    const simple: [CommandName, Record<string, unknown>, number[]][] = [
      ['led', { on: false }, [0]],
      ['led', { on: true }, [0]],
      ['rate-limit', { upKbps: 1000, downKbps: 2000 }, [0]],
      ['rate-limit', { upKbps: 100, downKbps: 100, clientMac: '02:00:00:00:00:01' }, [0]],
      ['rate-limit', { upKbps: 0, downKbps: 0 }, [0]],
      ['set-password', { password: 'weak' }, [Codes.PASSWORD]],
      ['set-password', { password: `Conf0rm-${randomBytes(3).toString('hex')}` }, [0]],
      ['kick-client', { mac: '02:00:00:00:00:02' }, [Codes.NOT_FOUND, Codes.CLIENT_NOT_ONLINE]],
      ['route-table', {}, [0]],
    ];
    const poePort = info?.ports.find((p) => p.poe)?.id;
    if (poePort) simple.push(['poe-reboot', { ports: [poePort] }, [0]]);
    for (const [name, params, expected] of simple) {
      if (!can(name)) {
        const { reply } = await command(name, params);
        step(
          `${name}: not a capability of the model, answers 2`,
          reply?.code === Codes.MODEL,
          `code ${reply?.code}`,
        );
        continue;
      }
      const { reply } = await command(name, params);
      step(
        `${name} ${JSON.stringify(params)}`,
        reply !== null && expected.includes(reply.code),
        `code ${reply?.code}`,
      );
    }

    // ── configuration
    const got = await command('get-config', {});
    const running =
      (got.reply?.data as { revision?: number; document?: Record<string, unknown> } | undefined) ?? {};
    step(
      'get-config: revision and document',
      got.reply?.code === 0 && typeof running.revision === 'number',
      `revision ${running.revision}`,
    );
    const document = running.document ?? {};
    const revision = (running.revision ?? 0) + 1;
    {
      const bad = {
        ...document,
        vlans: [{ id: (info?.maxVlan ?? 4094) + 1, name: 'conformance', dhcp: false }],
      } as never;
      const expected = info ? validateDeviceConfig(bad, info) : null;
      const { reply } = await command('apply-config', { revision, document: bad });
      step(
        'apply-config with a VLAN out of range is refused with the rule’s code',
        reply !== null && reply.code !== 0 && (!expected || reply.code === expected.code),
        `code ${reply?.code}${expected ? `, expected ${expected.code}` : ''}`,
      );
    }
    {
      const { reply, from } = await command(
        'apply-config',
        { revision: revision + 1, document },
        restartMs(12),
      );
      const st = await bench.next(
        (u) => u.kind === 'state' && (u.payload as { revision?: number })?.revision === revision + 1,
        15_000,
        from,
      );
      step(
        'apply-config: 0, then state with the new revision',
        reply?.code === 0 && st !== null,
        `code ${reply?.code}`,
      );
    }
    {
      const { reply } = await command('local-management', { enabled: true });
      const refused = await command('apply-config', { revision: revision + 2, document });
      const back = await command('local-management', { enabled: false });
      step(
        'local management: configuration answers 76 until cloud mode is back',
        reply?.code === 0 && refused.reply?.code === Codes.LOCAL_MANAGE && back.reply?.code === 0,
        `codes ${reply?.code}/${refused.reply?.code}/${back.reply?.code}`,
      );
    }

    // ── remote management through the device's own link
    {
      const { reply } = await command('remote-management-open', { ttlSeconds: 120 });
      const data = reply?.data as { token?: string; path?: string } | undefined;
      step(
        'remote-management-open: 0 with a token',
        reply?.code === 0 && typeof data?.token === 'string',
        `code ${reply?.code}`,
      );
      const get = async (token: string, path: string) => {
        const rid = `conf-http-${++seq}`;
        const from = bench.ups.length;
        await bench.publish(
          tunnelDownTopic(sn),
          JSON.stringify({ rid, token, method: 'GET', path, ts: Date.now() }),
        );
        const pieces: { status?: number; body: string; more: boolean }[] = [];
        for (;;) {
          const up = await bench.next(
            (u) => {
              const p = u.payload as { rid?: string; seq?: number } | undefined;
              return u.kind === 'http' && p?.rid === rid && p.seq === pieces.length;
            },
            15_000,
            from,
          );
          const piece = up && tunnelResponseSchema.safeParse(up.payload);
          if (!piece?.success) return null;
          pieces.push(piece.data);
          if (!piece.data.more) break;
        }
        return {
          status: pieces[0].status,
          body: Buffer.concat(pieces.map((p) => Buffer.from(p.body, 'base64'))).toString(),
        };
      };
      if (data?.token) {
        const page = await get(data.token, data.path ?? '/');
        step(
          'tunnel: the page comes over the device’s own link',
          page?.status === 200 && page.body.length > 0,
          `status ${page?.status}`,
        );
        const wrong = await get('not-the-token', data.path ?? '/');
        step('tunnel: another token answers 401', wrong?.status === 401, `status ${wrong?.status}`);
        const closed = await command('remote-management-close', {});
        const after = await get(data.token, data.path ?? '/');
        step(
          'remote-management-close: 0, then the token answers 401',
          closed.reply?.code === 0 && after?.status === 401,
          `status ${after?.status}`,
        );
      }
    }

    // ── firmware
    const newer = info?.firmware.filter((v) => compareVersions(v, h.data.firmware) > 0) ?? [];
    if (!info || newer.length === 0) {
      step(
        'upgrade: a newer catalogue version',
        false,
        'none newer than the running one: start the device on an older version',
      );
    } else {
      const version = newer[newer.length - 1];
      const image = buildFirmwareImage(info.model, version, 16 * 1024);
      const facts = { model: info.model, version, size: image.length, sha256: sha256(image) };
      const signature = await signFirmware(o.firmwareSeed ?? DEV_FIRMWARE_SEED, facts);
      images.set(`/${version}.bin`, image);
      const params = {
        version,
        url: `${filesBase}/${version}.bin`,
        size: image.length,
        sha256: facts.sha256,
        signature,
      };
      {
        const { reply, from } = await command('upgrade', { ...params, sha256: 'ab'.repeat(32) });
        const event = await bench.next(
          (u) =>
            u.kind === 'event' &&
            deviceEventSchema.safeParse(u.payload).success &&
            (u.payload as { event: string }).event === 'upgrade-failed',
          60_000,
          from,
        );
        const code = (event?.payload as { data?: { code?: number } } | undefined)?.data?.code;
        step(
          'upgrade with a bad checksum: upgrade-failed with 5462, stays on its firmware',
          reply?.code === 0 && code === Codes.FIRMWARE_CHECKSUM,
          `reply ${reply?.code}, event code ${code}`,
        );
        await bench.next(
          (u) => u.kind === 'state' && (u.payload as { status?: number })?.status === 1,
          30_000,
          from,
        );
      }
      if (!o.skipRestarts) {
        const wills = bench.wills;
        const { reply, from } = await command('upgrade', params);
        const back = await bench.next(
          (u) => u.kind === 'hello' && (u.payload as { firmware?: string })?.firmware === version,
          restartMs(COMMAND_RULES.upgrade.seconds + 30),
          from,
        );
        step(
          'upgrade: 0, leaves cleanly (no will), comes back on the new firmware',
          reply?.code === 0 && back !== null && bench.wills === wills,
          `reply ${reply?.code}`,
        );
        const { reply: again } = await command('upgrade', params);
        step(
          'upgrade to the running version answers 38',
          again?.code === Codes.NO_NEW_VERSION,
          `code ${again?.code}`,
        );
      }
    }
    if (!o.skipRestarts) {
      const { reply, from } = await command('reboot', {});
      const busy = await bench.next(
        (u) => u.kind === 'state' && (u.payload as { status?: number })?.status === 8,
        15_000,
        from,
      );
      const back = await bench.next((u) => u.kind === 'hello', restartMs(COMMAND_RULES.reboot.seconds), from);
      step(
        'reboot: 0, state 8, then hello',
        reply?.code === 0 && busy !== null && back !== null,
        `reply ${reply?.code}`,
      );
      await bench.next(
        (u) => u.kind === 'state' && (u.payload as { status?: number })?.status === 1,
        30_000,
        from,
      );
    }
    if (!o.skipRestarts && can('reset')) {
      const { reply, from } = await command('reset', {});
      const back = await bench.next(
        (u) => u.kind === 'hello' && (u.payload as { revision?: number })?.revision === 0,
        restartMs(COMMAND_RULES.reset.seconds),
        from,
      );
      step('reset: 0, comes back at revision 0', reply?.code === 0 && back !== null, `reply ${reply?.code}`);
    }
    const replies = bench.ups.filter((u) => u.kind === 'reply');
    step(
      'every reply is valid',
      replies.every((u) => replySchema.safeParse(u.payload).success),
      `${replies.length} replies`,
    );
    return results;
  } finally {
    files.closeAllConnections();
    await new Promise<void>((r) => files.close(() => r()));
    const closed = new Promise<void>((r) => broker.close(() => r()));
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => aedes.close(() => r()));
    await closed;
  }
}
