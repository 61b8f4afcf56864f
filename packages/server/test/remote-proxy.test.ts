import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, mailOutbox, remoteSessions } from '../src/db/schema.ts';
import { insertProject, insertSeen, simulateOnline, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The remote-management proxy (src/maintenance/remote-proxy.ts) reaches only the page the device
 * named: every other target form is refused before a connection is made, and no request ever
 * reaches a second server.
 */

interface Hit {
  url: string;
  authorization?: string;
  cookie?: string;
  forwardedFor?: string;
}

/** An HTTP server on loopback that records every request it gets. */
async function recorder(handle?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean) {
  const hits: Hit[] = [];
  const srv = http.createServer((req, res) => {
    hits.push({
      url: req.url ?? '',
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
      forwardedFor: req.headers['x-forwarded-for'] as string | undefined,
    });
    if (handle?.(req, res)) return;
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'device=1; Path=/' });
    res.end('<p>recorded</p>');
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  return {
    hits,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

type Recorder = Awaited<ReturnType<typeof recorder>>;

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
let victim: Recorder;
let device: Recorder;
let token: string;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  victim = await recorder();
  device = await recorder((req, res) => {
    if (req.url === '/ui/out') {
      res.writeHead(302, { location: `http://${victim.host}/hit` });
      res.end();
      return true;
    }
    if (req.url === '/ui/huge') {
      // 17 MB, more than a device page may be, in 1 MB pieces.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const piece = Buffer.alloc(1 << 20, 97);
      let left = 17;
      const more = () => {
        while (left > 0) {
          left -= 1;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      more();
      return true;
    }
    if (req.url === '/ui/in') {
      res.writeHead(302, { location: '/ui/next?x=1' });
      res.end();
      return true;
    }
    return false;
  });
  // A session on a device page below a path (/ui/), as a device may serve it.
  const sn = testSn('P');
  await insertSeen(server, sn, { model: 'BA-W1200C', type: 'ap', projectId });
  token = randomBytes(24).toString('base64url');
  await server.database.db.insert(remoteSessions).values({
    token,
    sn,
    projectId,
    accountId: owner.id,
    deviceUrl: `http://${device.host}/ui/`,
    deviceToken: 'device-page-token',
    expiresAt: new Date(Date.now() + 600_000),
  });
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await victim?.close();
  await device?.close();
  await server?.close();
});

describe('the proxy reaches only the device page', () => {
  it('a path under the page reaches the device with its token only, sandboxed', async () => {
    const res = await rawGet(
      server,
      `/api/v1/remote/${token}/sub/page.html?x=1&y=%2F`,
      owner.client.cookieToken,
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('recorded');
    const hit = device.hits.at(-1)!;
    expect(hit.url).toBe('/ui/sub/page.html?x=1&y=%2F');
    expect(hit.authorization).toBe('Bearer device-page-token');
    expect(hit.cookie).toBeUndefined();
    expect(hit.forwardedFor).toBeDefined();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/(^|;)\s*sandbox\b/);
    expect(csp).not.toContain('allow-same-origin');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('the page itself (empty rest) is served', async () => {
    const res = await rawGet(server, `/api/v1/remote/${token}/`, owner.client.cookieToken);
    expect(res.status).toBe(200);
    expect(device.hits.at(-1)!.url).toBe('/ui/');
  });

  const forms = (v: string) => [
    `//${v}/hit`,
    `///${v}/hit`,
    `http://${v}/hit`,
    `https://${v}/hit`,
    `http:${v}/hit`,
    `http:/${v}/hit`,
    `http:%2F%2F${v}/hit`,
    `http:%2f%2f${v}/hit`,
    `%2F%2F${v}/hit`,
    `http%3A%2F%2F${v}%2Fhit`,
    `\\\\${v}/hit`,
    `/\\${v}/hit`,
    `\\/${v}/hit`,
    `%5C%5C${v}/hit`,
    `../hit`,
    `a/../../hit`,
    `./../hit`,
    `%2e%2e/hit`,
    `.%2E/hit`,
    `%2E%2E%2Fhit`,
    `..%2Fhit`,
    `..%5Chit`,
    `a/%2e%2e/%2e%2e/hit`,
    `a%00/../../hit`,
    `%0d%0a//${v}/hit`,
    `..;/hit`,
  ];

  it('every other target form is refused (5030, or 16 for a NUL) before any connection', async () => {
    const before = device.hits.length;
    for (const form of forms(victim.host)) {
      const res = await rawGet(server, `/api/v1/remote/${token}/${form}`, owner.client.cookieToken);
      if (form === '..;/hit') {
        // Not a dot segment: an ordinary name under the page.
        expect(device.hits.at(-1)!.url, form).toBe('/ui/..;/hit');
        continue;
      }
      // A NUL anywhere in a URL is refused by the request check before any route (16, validation.ts).
      const refusal = form.includes('%00') ? { status: 400, code: 16 } : { status: 403, code: 5030 };
      expect({ form, status: res.status, code: codeOf(res.body) }).toEqual({ form, ...refusal });
    }
    expect(victim.hits).toEqual([]);
    // Only the one ordinary name reached the device, under its page.
    expect(device.hits.slice(before).map((h) => h.url)).toEqual(['/ui/..;/hit']);
  });

  it('a redirect out of the page is not followed nor passed on; one inside is rewritten', async () => {
    const out = await rawGet(server, `/api/v1/remote/${token}/out`, owner.client.cookieToken);
    expect({ status: out.status, code: codeOf(out.body) }).toEqual({ status: 502, code: 320 });
    expect(out.headers.location).toBeUndefined();
    expect(victim.hits).toEqual([]);
    const inside = await rawGet(server, `/api/v1/remote/${token}/in`, owner.client.cookieToken);
    expect(inside.status).toBe(302);
    expect(inside.headers.location).toBe(`/api/v1/remote/${token}/next?x=1`);
  });

  it('a device answer larger than a page may be is refused with 320', async () => {
    const res = await rawGet(server, `/api/v1/remote/${token}/huge`, owner.client.cookieToken);
    expect({ status: res.status, code: codeOf(res.body) }).toEqual({ status: 502, code: 320 });
  });

  it("the console's own loopback routes stay out of reach (the reported attack on the dev outbox)", async () => {
    const target = await createAccount(server);
    await server.database.db
      .insert(mailOutbox)
      .values({ to: target.email, subject: 'Reset', body: 'Your Beacon verification code is 123456' });
    const own = new URL(server.url).host;
    for (const form of [`//${own}`, `http://${own}`, `http:%2F%2F${own}`, `%2F%2F${own}`]) {
      const res = await rawGet(
        server,
        `/api/v1/remote/${token}/${form}/api/v1/dev/outbox?email=${encodeURIComponent(target.email)}`,
        owner.client.cookieToken,
      );
      expect(res.status, form).toBe(403);
      expect(res.body).not.toContain('123456');
    }
  });
});

describe('the page address a device returns is checked', () => {
  /** A simulated device whose remote-management reply names `url` instead of its own page. */
  async function lyingDevice(url: string): Promise<SimulatedDevice> {
    const sn = testSn('L');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const core = d.core as unknown as { reply: (...args: unknown[]) => void };
    const reply = core.reply.bind(core);
    core.reply = (id, code, message, data) =>
      reply(id, code, message, data && 'url' in (data as object) ? { ...(data as object), url } : data);
    return d;
  }

  const open = (sn: string) =>
    owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/remote-management`, {
      enabled: true,
      ttlSeconds: 600,
    });

  it.each([
    ['credentials', 'http://user:pass@127.0.0.1:1/'],
    ['a file URL', 'file:///etc/passwd'],
    ['another scheme', 'ftp://127.0.0.1/'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['the unspecified address', 'http://0.0.0.0:8080/'],
    ['a query', 'http://127.0.0.1:1/?next=http://elsewhere/'],
    ['not a URL', 'not a url'],
  ])('refuses %s with 5023 and opens no session', async (_what, url) => {
    const d = await lyingDevice(url);
    const res = await open(d.sn);
    expect(res.body.code, JSON.stringify(res.body)).toBe(5023);
    const sessions = await server.database.db
      .select()
      .from(remoteSessions)
      .where(eq(remoteSessions.sn, d.sn));
    expect(sessions).toEqual([]);
  });

  it("a device's own loopback page still opens and is proxied", async () => {
    const sn = testSn('G');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const res = await open(sn);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const page = await rawGet(server, res.body.data.data?.url as string, owner.client.cookieToken);
    expect(page.status).toBe(200);
    expect(page.body).toContain(sn);
  });
});
