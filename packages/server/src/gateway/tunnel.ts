import { randomBytes } from 'node:crypto';
import {
  parseTunnelTopic,
  TUNNEL_MAX_CHUNKS,
  TUNNEL_PAGE_MAX_BYTES,
  TUNNEL_TIMEOUT_SECONDS,
  type TunnelRequest,
  tunnelDownTopic,
  tunnelResponseSchema,
} from '@beacon/protocol';

/**
 * The server's end of the remote-management tunnel (docs/decisions/0060): a request of the
 * administrator's browser goes to the device over its own MQTT link (`dev/{sn}/down/http`), and the
 * pieces of its answer come back on `dev/{sn}/up/http`. The instance that holds the browser's request
 * holds the pending answer: every instance subscribes to the answers without `$share` and takes only
 * its own request ids. Nothing here opens a connection to anything but the broker.
 */

export interface TunnelAnswer {
  status: number;
  contentType: string | undefined;
  location: string | undefined;
  /** Null when the answer passed TUNNEL_PAGE_MAX_BYTES (the rest is not kept). */
  body: Buffer | null;
}

export class TunnelError extends Error {
  constructor(readonly reason: 'timeout' | 'closed') {
    super(reason === 'timeout' ? 'the device did not answer in time' : 'the tunnel is closed');
  }
}

interface Pending {
  sn: string;
  pieces: Map<number, Buffer>;
  first: { status: number; contentType?: string; location?: string } | null;
  last: number | null;
  bytes: number;
  resolve(answer: TunnelAnswer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class RemoteTunnel {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly publish: (topic: string, payload: string) => Promise<void>,
    private readonly timeoutMs = TUNNEL_TIMEOUT_SECONDS * 1000,
  ) {}

  /** Sends one request to the device and resolves with its whole answer (TunnelError otherwise). */
  request(sn: string, request: Omit<TunnelRequest, 'rid' | 'ts'>): Promise<TunnelAnswer> {
    const rid = randomBytes(12).toString('base64url');
    return new Promise<TunnelAnswer>((resolve, reject) => {
      const timer = setTimeout(() => this.end(rid, new TunnelError('timeout')), this.timeoutMs);
      this.pending.set(rid, {
        sn,
        pieces: new Map(),
        first: null,
        last: null,
        bytes: 0,
        resolve,
        reject,
        timer,
      });
      const message: TunnelRequest = { rid, ts: Date.now(), ...request };
      this.publish(tunnelDownTopic(sn), JSON.stringify(message)).catch(() =>
        this.end(rid, new TunnelError('closed')),
      );
    });
  }

  /** Whether the topic is a tunnel answer (the gateway hands those here, not to ingest). */
  static isAnswer(topic: string): boolean {
    return parseTunnelTopic(topic)?.direction === 'up';
  }

  /** One piece of an answer from a device; anything not awaited here (another instance's) is ignored. */
  accept(topic: string, payload: Buffer): void {
    const parsed = parseTunnelTopic(topic);
    if (parsed?.direction !== 'up' || this.pending.size === 0) return;
    let piece: ReturnType<typeof tunnelResponseSchema.parse>;
    try {
      const result = tunnelResponseSchema.safeParse(JSON.parse(payload.toString('utf8')));
      if (!result.success) return;
      piece = result.data;
    } catch {
      return;
    }
    const p = this.pending.get(piece.rid);
    // Only the device the request went to answers it: another device knowing a request id gets nowhere.
    if (!p || p.sn !== parsed.sn || p.pieces.has(piece.seq)) return;
    if (piece.seq === 0) {
      if (piece.status === undefined) return;
      p.first = { status: piece.status, contentType: piece.contentType, location: piece.location };
    }
    if (!piece.more) p.last = piece.seq;
    const body = Buffer.from(piece.body, 'base64');
    p.bytes += body.length;
    if (p.bytes > TUNNEL_PAGE_MAX_BYTES) {
      this.end(piece.rid, null, {
        status: p.first?.status ?? 200,
        contentType: undefined,
        location: undefined,
        body: null,
      });
      return;
    }
    p.pieces.set(piece.seq, body);
    if (p.first && p.last !== null && p.pieces.size >= p.last + 1 && p.last <= TUNNEL_MAX_CHUNKS) {
      const parts: Buffer[] = [];
      for (let i = 0; i <= p.last; i++) {
        const part = p.pieces.get(i);
        if (!part) return;
        parts.push(part);
      }
      this.end(piece.rid, null, {
        status: p.first.status,
        contentType: p.first.contentType,
        location: p.first.location,
        body: Buffer.concat(parts),
      });
    }
  }

  private end(rid: string, err: Error | null, answer?: TunnelAnswer): void {
    const p = this.pending.get(rid);
    if (!p) return;
    this.pending.delete(rid);
    clearTimeout(p.timer);
    if (err) p.reject(err);
    else p.resolve(answer!);
  }

  /** Ends every waiting request (shutdown). */
  close(): void {
    for (const rid of [...this.pending.keys()]) this.end(rid, new TunnelError('closed'));
  }
}
