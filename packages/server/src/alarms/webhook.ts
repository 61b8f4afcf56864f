import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '@beacon/protocol';

/**
 * The webhook POST (docs/alarms.md). The target is user input, so: its name is resolved once and
 * the resolved address is checked (no loopback, private or link-local address unless allowed) and
 * then connected to — a second lookup cannot swap in another address; redirects are not followed
 * (a 3xx is a failure); the whole attempt is bounded by `timeoutMs`; the answer's body is ignored.
 */

export const SIGNATURE_HEADER = 'x-beacon-signature';
export const TIMESTAMP_HEADER = 'x-beacon-timestamp';
export const DELIVERY_HEADER = 'x-beacon-delivery';

/** `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` under the project's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export class WebhookRefused extends Error {}

export interface WebhookResult {
  status: number;
}

export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<WebhookResult> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookRefused('not http or https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  let family: number;
  if (net.isIP(host)) {
    address = host;
    family = net.isIP(host);
  } else {
    const found = await withTimeout(dns.lookup(host), options.timeoutMs, 'DNS lookup timed out');
    address = found.address;
    family = found.family;
  }
  if (!options.allowPrivate && isPrivateAddress(address)) {
    throw new WebhookRefused(`${host} resolves to a private or local address`);
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<WebhookResult>((resolve, reject) => {
    const request = client.request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      headers: {
        ...headers,
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Beacon-Alarms/1',
      },
      ...(net.isIP(host) ? {} : { servername: host }),
      // The checked address, whatever a new lookup would say.
      lookup: ((_name: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address, family }]);
        else cb(null, address, family);
      }) as unknown as net.LookupFunction,
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0 });
      });
      response.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    request.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    request.end(body);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
