import { describe, expect, it } from 'vitest';
import {
  remoteOpenReplySchema,
  remotePageDirectory,
  TUNNEL_CHUNK_BYTES,
  tunnelPieces,
  tunnelRequestSchema,
  tunnelResponseSchema,
} from './remote.ts';

describe('the remote-management tunnel messages', () => {
  it('the open reply needs a printable token; the page path defaults to /', () => {
    expect(remoteOpenReplySchema.parse({ token: 'abc' }).path).toBe('/');
    expect(remoteOpenReplySchema.safeParse({ token: 'a\r\nb' }).success).toBe(false);
    expect(remoteOpenReplySchema.safeParse({}).success).toBe(false);
    for (const path of ['ui/', '/a/../b', '/a?x=1', 'http://h/'])
      expect(remoteOpenReplySchema.safeParse({ token: 't', path }).success, path).toBe(false);
  });

  it('the page directory', () => {
    expect(remotePageDirectory('/ui/index.html')).toBe('/ui/');
    expect(remotePageDirectory('/')).toBe('/');
  });

  it('requests carry an absolute path without dot segments', () => {
    const base = { rid: 'r1', token: 't', method: 'GET', ts: 1 };
    expect(tunnelRequestSchema.safeParse({ ...base, path: '/status.json?x=1' }).success).toBe(true);
    for (const path of ['//h/x', 'http://h/', '/a/../b', '/a#b', '/a b'])
      expect(tunnelRequestSchema.safeParse({ ...base, path }).success, path).toBe(path === '//h/x');
  });

  it('an answer splits into pieces that each validate and join back', () => {
    const body = new Uint8Array(TUNNEL_CHUNK_BYTES * 2 + 5).map((_, i) => i & 255);
    const pieces = tunnelPieces('r', { status: 200, contentType: 'text/html', body });
    expect(pieces.map((p) => [p.seq, p.more])).toEqual([
      [0, true],
      [1, true],
      [2, false],
    ]);
    for (const p of pieces) expect(tunnelResponseSchema.safeParse(p).success).toBe(true);
    const joined = Buffer.concat(pieces.map((p) => Buffer.from(p.body, 'base64')));
    expect(joined.equals(Buffer.from(body))).toBe(true);
    expect(tunnelPieces('r', { status: 204, body: new Uint8Array() })).toEqual([
      { rid: 'r', seq: 0, status: 204, body: '', more: false },
    ]);
  });
});
