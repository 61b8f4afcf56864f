import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, firmwareImages } from '../src/db/schema.ts';
import { insertProject } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Malformed multipart on the three upload routes (avatar, firmware, device import) answers a 4xx
 * with 16 (form data) or 20 (file), never 500, and stores nothing.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await server?.close();
});

/** A POST with the body and content type exactly as given (no client-side form encoding). */
function rawPost(
  path: string,
  contentType: string | undefined,
  body: Buffer,
  opts: { declaredLength?: number } = {},
): Promise<{ status: number; code: number | null }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      cookie: `token=${owner.client.cookieToken}`,
      'content-length': opts.declaredLength ?? body.length,
    };
    if (contentType) headers['content-type'] = contentType;
    const req = http.request(
      { host: '127.0.0.1', port, path: `/api/v1${path}`, method: 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let code: number | null = null;
          try {
            code = JSON.parse(Buffer.concat(chunks).toString()).code ?? null;
          } catch {}
          resolve({ status: res.statusCode ?? 0, code });
        });
      },
    );
    // A truncated body: the client stops sending and closes its side.
    req.on('error', (err) => reject(err));
    if (opts.declaredLength !== undefined && opts.declaredLength > body.length) {
      req.write(body);
      setTimeout(() => req.socket?.end(), 50);
    } else req.end(body);
  });
}

const B = 'beaconboundary';
const part = (headers: string, content: Buffer | string) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
const filePart = (name: string, content: Buffer | string) =>
  part(
    `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream`,
    content,
  );
const end = Buffer.from(`--${B}--\r\n`);
const multipart = `multipart/form-data; boundary=${B}`;

const routes = [
  { what: 'avatar', path: () => '/account/avatar', file: 'me.png' },
  { what: 'firmware', path: () => `/projects/${projectId}/firmware`, file: 'fw.bin' },
  { what: 'device import', path: () => `/projects/${projectId}/devices/import`, file: 'devices.xlsx' },
];

const payload = Buffer.alloc(2048, 7);

const cases: Array<{
  name: string;
  contentType: string | undefined;
  body: (file: string) => Buffer;
  declaredLength?: (file: string) => number;
  /** 16 unless given. */
  code?: number;
}> = [
  {
    name: 'no boundary',
    contentType: 'multipart/form-data',
    body: (f) => Buffer.concat([filePart(f, payload), end]),
  },
  {
    name: 'a boundary that is not in the body',
    contentType: 'multipart/form-data; boundary=other',
    body: (f) => Buffer.concat([filePart(f, payload), end]),
  },
  {
    name: 'a truncated body',
    contentType: multipart,
    body: (f) => filePart(f, payload).subarray(0, 600),
    declaredLength: (f) => filePart(f, payload).length + end.length,
  },
  {
    name: 'a body cut before its closing boundary',
    contentType: multipart,
    body: (f) => filePart(f, payload).subarray(0, 600),
  },
  { name: 'no content type', contentType: undefined, body: () => payload },
  { name: 'a wrong content type', contentType: 'application/octet-stream', body: () => payload },
  { name: 'text/plain', contentType: 'text/plain', body: () => Buffer.from('file=hello') },
  { name: 'JSON', contentType: 'application/json', body: () => Buffer.from('{"file":"x"}') },
  { name: 'an empty body', contentType: multipart, body: () => Buffer.alloc(0) },
  { name: 'only the closing boundary', contentType: multipart, body: () => end },
  {
    name: 'an empty file',
    contentType: multipart,
    body: (f) => Buffer.concat([filePart(f, ''), end]),
    code: 20,
  },
  {
    name: 'two files',
    contentType: multipart,
    body: (f) => Buffer.concat([filePart(f, payload), filePart(f, payload), end]),
  },
  {
    name: 'a field instead of a file',
    contentType: multipart,
    body: () => Buffer.concat([part('Content-Disposition: form-data; name="file"', 'just text'), end]),
  },
  {
    name: 'a file under another name',
    contentType: multipart,
    body: (f) =>
      Buffer.concat([part(`Content-Disposition: form-data; name="other"; filename="${f}"`, payload), end]),
  },
  {
    name: 'a part without headers',
    contentType: multipart,
    body: () => Buffer.concat([Buffer.from(`--${B}\r\n\r\nxyz\r\n`), end]),
  },
];

describe.each(routes)('malformed multipart on the $what upload', ({ path, file }) => {
  it.each(cases)(
    '$name answers a 4xx with 16 (20 for an empty file)',
    async ({ contentType, body, declaredLength, code }) => {
      const res = await rawPost(path(), contentType, body(file), { declaredLength: declaredLength?.(file) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.code).toBe(code ?? 16);
    },
  );
});

describe('nothing is stored', () => {
  it('no avatar and no firmware after the malformed uploads', async () => {
    const [account] = await server.database.db
      .select({ avatar: accounts.avatar })
      .from(accounts)
      .where(eq(accounts.id, owner.id));
    expect(account.avatar).toBeNull();
    const images = await server.database.db
      .select({ id: firmwareImages.id })
      .from(firmwareImages)
      .where(eq(firmwareImages.projectId, projectId));
    expect(images).toEqual([]);
  });
});
