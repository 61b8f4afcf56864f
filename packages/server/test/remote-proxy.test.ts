import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { SimulatedDevice } from '@beacon/agent';
import { type ActionResultView, tunnelPieces, tunnelRequestSchema } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, mailOutbox, remoteSessions } from '../src/db/schema.ts';
import { insertProject, simulateOnline, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Remote management through the tunnel the device opens (docs/decisions/0060): the simulated device
 * accepts no inbound connection; the server carries the browser's requests over the device's own
 * MQTT link and never connects to an address a device or a user names.
 */

/** An HTTP server on loopback that records every request it gets: what the proxy must never reach. */
async function recorder() {
  const hits: string[] = [];
  const srv = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>recorded</p>');
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    hits,
    host: `127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

/** A GET with the request target exactly as given (fetch would normalise it first). */
function rawGet(
  server: TestServer,
  target: string,
  cookieToken: string | undefined,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, headers: { cookie: `token=${cookieToken}; other=console` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const codeOf = (body: string): number | null => {
  try {
    return (JSON.parse(body) as { code?: number }).code ?? null;
  } catch {
    return null;
  }
};

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let victim: Awaited<ReturnType<typeof recorder>>;
const running: SimulatedDevice[] = [];

/**
 * TCP connections opened while `body` runs, other than the test's own requests to the console and
 * the console's to its database: what the proxy would open to reach a device or a named address.
 */
async function connectionsDuring(body: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const original = net.Socket.prototype.connect;
  const expected = new Set([
    new URL(server.url).port,
    String(new URL(server.config.databaseUrl ?? 'postgres://h:5432/x').port || 5432),
  ]);
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    // Node passes its normalised [options, callback] as the first argument.
    const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as
      | { port?: number | string; host?: string; path?: string }
      | number;
    const port = String(typeof first === 'object' ? (first.port ?? first.path ?? '') : first);
    if (!expected.has(port)) seen.push(`${typeof first === 'object' ? first.host : ''}:${port}`);
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  try {
    await body();
  } finally {
    net.Socket.prototype.connect = original;
  }
  return seen;
}

/** An online simulated device of the project; `tunnelled` records the paths it is asked for. */
async function deviceInProject(prefix: string) {
  const sn = testSn(prefix);
  const d = await simulateOnline(server, sn);
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  const tunnelled: string[] = [];
  const core = d.core as unknown as { onTunnel(p: Buffer): void };
  const onTunnel = core.onTunnel.bind(core);
  core.onTunnel = (payload) => {
    const req = tunnelRequestSchema.safeParse(JSON.parse(payload.toString()));
    if (req.success) tunnelled.push(req.data.path);
    onTunnel(payload);
  };
  return { d, sn, tunnelled };
}

const open = (sn: string, client = owner.client) =>
  client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/remote-management`, {
    enabled: true,
    ttlSeconds: 600,
  });

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  victim = await recorder();
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await victim?.close();
  await server?.close();
});

describe('remote management of a device that accepts no inbound connection', () => {
  it('opens without the device listening anywhere, and its page comes through its own link', async () => {
    const { sn, tunnelled } = await deviceInProject('T');
    let listens = 0;
    const listen = net.Server.prototype.listen;
    net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
      listens++;
      return (listen as (...a: unknown[]) => net.Server).apply(this, args);
    } as typeof listen;
    let url = '';
    let page: Awaited<ReturnType<typeof rawGet>> | null = null;
    const outgoing = await connectionsDuring(async () => {
      try {
        const res = await open(sn);
        expect(res.body.code, JSON.stringify(res.body)).toBe(0);
        url = res.body.data.data?.url as string;
        page = await rawGet(server, url, owner.client.cookieToken);
      } finally {
        net.Server.prototype.listen = listen;
      }
    });
    expect(listens).toBe(0);
    expect(outgoing).toEqual([]);
    expect(page!.status).toBe(200);
    expect(page!.body).toContain(sn);
    const csp = String(page!.headers['content-security-policy']);
    expect(csp).toMatch(/(^|;)\s*sandbox\b/);
    expect(csp).not.toContain('allow-same-origin');
    expect(tunnelled).toEqual(['/']);
    // The session keeps the page's path, no address.
    const [row] = await server.database.db.select().from(remoteSessions).where(eq(remoteSessions.sn, sn));
    expect(row.pagePath).toBe('/');
    // Under the page, a redirect that stays on it is passed on as a path of the session.
    const json = await rawGet(server, `${url}status.json?x=1`, owner.client.cookieToken);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual({ ok: true });
    const home = await rawGet(server, `${url}home`, owner.client.cookieToken);
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe(url);
    expect(tunnelled).toEqual(['/', '/status.json?x=1', '/home']);
  });

  it('a device that does not answer through its tunnel gives 321, one that refuses the token too', async () => {
    const { d, sn } = await deviceInProject('S');
    const res = await open(sn);
    const url = res.body.data.data?.url as string;
    const core = d.core as unknown as { onTunnel(p: Buffer): void };
    const onTunnel = core.onTunnel.bind(core);
    // The device's token no longer matches (e.g. it restarted its page): 401 from the device.
    await server.database.db
      .update(remoteSessions)
      .set({ deviceToken: 'stale-token' })
      .where(eq(remoteSessions.sn, sn));
    const refused = await rawGet(server, url, owner.client.cookieToken);
    expect({ status: refused.status, code: codeOf(refused.body) }).toEqual({ status: 504, code: 321 });
    core.onTunnel = () => {};
    try {
      const silent = await rawGet(server, url, owner.client.cookieToken);
      expect(codeOf(silent.body)).toBe(321);
    } finally {
      core.onTunnel = onTunnel;
    }
  }, 40_000);
});

describe('the proxy has no way to reach another address (the SSRF forms of issue 5)', () => {
  const forms = (v: string) => [
    `//${v}/hit`,
    `///${v}/hit`,
    `http://${v}/hit`,
    `https://${v}/hit`,
    `http:${v}/hit`,
    `http:/${v}/hit`,
    `http:%2F%2F${v}/hit`,
    `%2F%2F${v}/hit`,
    `http%3A%2F%2F${v}%2Fhit`,
    `\\\\${v}/hit`,
    `/\\${v}/hit`,
    `%5C%5C${v}/hit`,
    `../hit`,
    `a/../../hit`,
    `%2e%2e/hit`,
    `..%2Fhit`,
    `a%00/../../hit`,
    `%0d%0a//${v}/hit`,
  ];

  it('a device naming another address in its reply is not followed: the page still comes through the tunnel', async () => {
    const { d, sn } = await deviceInProject('L');
    const core = d.core as unknown as { reply: (...args: unknown[]) => void };
    const reply = core.reply.bind(core);
    const target = `http://${victim.host}/latest/meta-data/`;
    core.reply = (id, code, message, data) =>
      reply(
        id,
        code,
        message,
        data && 'token' in (data as object) ? { ...(data as object), url: target } : data,
      );
    const outgoing = await connectionsDuring(async () => {
      const res = await open(sn);
      expect(res.body.code).toBe(0);
      const page = await rawGet(server, res.body.data.data?.url as string, owner.client.cookieToken);
      expect(page.body).toContain(sn);
    });
    expect(outgoing).toEqual([]);
    expect(victim.hits).toEqual([]);
  });

  it('every other target form is refused (5030, or 16 for a NUL) before the device is asked', async () => {
    const { sn, tunnelled } = await deviceInProject('F');
    const url = (await open(sn)).body.data.data?.url as string;
    const own = new URL(server.url).host;
    const target = await createAccount(server);
    await server.database.db
      .insert(mailOutbox)
      .values({ to: target.email, subject: 'Reset', body: 'Your Beacon verification code is 123456' });
    const outgoing = await connectionsDuring(async () => {
      for (const form of [...forms(victim.host), ...forms(own).map((f) => `${f}/api/v1/dev/outbox`)]) {
        const res = await rawGet(server, `${url}${form}`, owner.client.cookieToken);
        const refusal = form.includes('%00') ? { status: 400, code: 16 } : { status: 403, code: 5030 };
        expect({ form, status: res.status, code: codeOf(res.body) }).toEqual({ form, ...refusal });
        expect(res.body).not.toContain('123456');
      }
    });
    expect(outgoing).toEqual([]);
    expect(victim.hits).toEqual([]);
    expect(tunnelled).toEqual([]);
  });

  it("a redirect off the device's page is not passed on (320); the answer of another device is not taken", async () => {
    const { d, sn } = await deviceInProject('R');
    const other = await deviceInProject('O');
    const url = (await open(sn)).body.data.data?.url as string;
    const core = d.core as unknown as { onTunnel(p: Buffer): void };
    core.onTunnel = (payload) => {
      const { rid } = JSON.parse(payload.toString()) as { rid: string };
      // Another device that learnt the request id answers first: ignored (it is not the device asked).
      for (const p of tunnelPieces(rid, { status: 200, body: new TextEncoder().encode('forged') }))
        other.d.link.publishTunnel(p);
      for (const p of tunnelPieces(rid, {
        status: 302,
        location: `http://${victim.host}/hit`,
        body: new Uint8Array(),
      }))
        d.link.publishTunnel(p);
    };
    const out = await rawGet(server, url, owner.client.cookieToken);
    expect({ status: out.status, code: codeOf(out.body) }).toEqual({ status: 502, code: 320 });
    expect(out.headers.location).toBeUndefined();
    expect(out.body).not.toContain('forged');
    expect(victim.hits).toEqual([]);
  });
});
