import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The device's small local web page, served while remote management is open. The server proxies it
 * through its own expiring, authenticated URL; the device checks the token of the session
 * (`Authorization: Bearer <token>` or `?token=`).
 */
export class RemotePage {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
    readonly expiresAt: number,
  ) {}

  static open(host: string, token: string, expiresAt: number, render: () => string): Promise<RemotePage> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://device');
      const auth = req.headers.authorization;
      const given = auth?.startsWith('Bearer ') ? auth.slice(7) : url.searchParams.get('token');
      if (given !== token || Date.now() > expiresAt) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end('Unauthorized');
        return;
      }
      if (url.pathname === '/status.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(render());
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        const { port } = server.address() as AddressInfo;
        resolve(new RemotePage(server, `http://${host}:${port}/`, token, expiresAt));
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
