import { type TunnelRequest, type TunnelResponse, tunnelPieces } from '@beacon/protocol';

/**
 * The device's small local web page, served while remote management is open, through the tunnel
 * the device opens itself (docs/decisions/0060): the server's requests come over the device's own
 * MQTT link on `dev/{sn}/down/http` and the answers go back on `dev/{sn}/up/http`. The device
 * accepts no inbound connection; it checks the session's token and its end on every request.
 */
export class RemoteSession {
  constructor(
    readonly token: string,
    readonly expiresAt: number,
  ) {}

  /** The answer pieces for one tunnelled request; `render` builds the page from the device's state. */
  answer(request: TunnelRequest, render: () => string, now = Date.now()): TunnelResponse[] {
    const enc = new TextEncoder();
    if (request.token !== this.token || now > this.expiresAt) {
      return tunnelPieces(request.rid, {
        status: 401,
        contentType: 'text/plain',
        body: enc.encode('Unauthorized'),
      });
    }
    const path = request.path.split('?')[0];
    const head = request.method === 'HEAD';
    const reply = (status: number, contentType: string, text: string) =>
      tunnelPieces(request.rid, { status, contentType, body: head ? new Uint8Array() : enc.encode(text) });
    if (path === '/' || path === '/index.html') return reply(200, 'text/html; charset=utf-8', render());
    if (path === '/status.json') return reply(200, 'application/json', JSON.stringify({ ok: true }));
    // A redirect that stays on the page, as device UIs send after a form.
    if (path === '/home')
      return tunnelPieces(request.rid, { status: 302, location: '/', body: new Uint8Array() });
    return reply(404, 'text/plain', 'Not found');
  }
}

/** A request that failed validation still gets an answer, so the browser is not kept waiting. */
export const badTunnelRequest = (rid: string): TunnelResponse[] =>
  tunnelPieces(rid, {
    status: 400,
    contentType: 'text/plain',
    body: new TextEncoder().encode('Bad request'),
  });

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
