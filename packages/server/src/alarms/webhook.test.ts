import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPrivateAddress, validateWebhookUrl } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook, signature, WebhookRefused } from './webhook.ts';

let server: http.Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end();
    else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 2000);
    else res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('webhook targets', () => {
  it('knows private, loopback and link-local addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('refuses URLs that are not public http(s) with 5240', () => {
    for (const url of [
      'ftp://example.com/x',
      'http://user:pw@example.com/',
      'http://localhost:8080/',
      'http://[::1]/',
      'http://10.0.0.5/hook',
      'not a url',
    ]) {
      expect(validateWebhookUrl(url)?.code, url).toBe(5240);
    }
    expect(validateWebhookUrl('https://hooks.example.com/beacon')).toBeNull();
    expect(validateWebhookUrl('http://127.0.0.1:9000/x', true)).toBeNull();
  });

  it('does not connect to a loopback address unless allowed', async () => {
    const before = hits;
    await expect(
      postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, { allowPrivate: false, timeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(WebhookRefused);
    // A name that resolves to loopback is refused too: the resolved address is what is checked.
    await expect(
      postWebhook(`http://localhost:${port}/`, '{}', {}, { allowPrivate: false, timeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(WebhookRefused);
    expect(hits).toBe(before);
    const ok = await postWebhook(
      `http://localhost:${port}/`,
      '{}',
      {},
      { allowPrivate: true, timeoutMs: 1000 },
    );
    expect(ok.status).toBe(200);
  });

  it('does not follow redirects and gives up after the timeout', async () => {
    const redirect = await postWebhook(
      `http://127.0.0.1:${port}/redirect`,
      '{}',
      {},
      { allowPrivate: true, timeoutMs: 1000 },
    );
    expect(redirect.status).toBe(302);
    await expect(
      postWebhook(`http://127.0.0.1:${port}/slow`, '{}', {}, { allowPrivate: true, timeoutMs: 300 }),
    ).rejects.toThrow(/no answer within 300 ms/);
  });

  it('signs timestamp and body with HMAC-SHA256', () => {
    // openssl: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(signature('secret', '1700000000', '{"a":1}')).toBe(
      'sha256=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686',
    );
    expect(signature('secret', '1700000000', '{"a":1}')).not.toBe(
      signature('secret', '1700000001', '{"a":1}'),
    );
  });
});
