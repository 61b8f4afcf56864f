import { TUNNEL_CHUNK_BYTES, TUNNEL_PAGE_MAX_BYTES, tunnelPieces } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { RemoteTunnel, TunnelError } from './tunnel.ts';

/** A tunnel whose requests are captured; `answer` plays the device. */
function setup(timeoutMs = 5_000) {
  const sent: { topic: string; rid: string }[] = [];
  const tunnel = new RemoteTunnel(async (topic, payload) => {
    sent.push({ topic, rid: (JSON.parse(payload) as { rid: string }).rid });
  }, timeoutMs);
  const answer = (sn: string, piece: object) =>
    tunnel.accept(`dev/${sn}/up/http`, Buffer.from(JSON.stringify(piece)));
  return { tunnel, sent, answer };
}

const SN = 'TUNNELTEST000001';
const req = { token: 't', method: 'GET' as const, path: '/' };

describe('the server end of the remote-management tunnel', () => {
  it('sends on the device’s down/http and joins the pieces in order, whatever order they come in', async () => {
    const { tunnel, sent, answer } = setup();
    const pending = tunnel.request(SN, req);
    await Promise.resolve();
    expect(sent[0].topic).toBe(`dev/${SN}/down/http`);
    const body = new Uint8Array(TUNNEL_CHUNK_BYTES + 10).map((_, i) => i & 255);
    const pieces = tunnelPieces(sent[0].rid, { status: 200, contentType: 'text/html', body });
    answer(SN, pieces[1]);
    answer(SN, pieces[1]);
    answer(SN, pieces[0]);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/html');
    expect(Buffer.from(body).equals(res.body!)).toBe(true);
  });

  it('ignores answers from another device, unknown ids and invalid pieces; times out', async () => {
    const { tunnel, sent, answer } = setup(200);
    const pending = tunnel.request(SN, req);
    await Promise.resolve();
    const [piece] = tunnelPieces(sent[0].rid, { status: 200, body: new Uint8Array(3) });
    answer('OTHERDEVICE00001', piece);
    answer(SN, { ...piece, rid: 'unknown' });
    tunnel.accept(`dev/${SN}/up/http`, Buffer.from('not json'));
    answer(SN, { ...piece, status: 99 });
    await expect(pending).rejects.toBeInstanceOf(TunnelError);
  });

  it('an answer past the limit ends with no body', async () => {
    const { tunnel, sent, answer } = setup();
    const pending = tunnel.request(SN, req);
    await Promise.resolve();
    const count = Math.ceil(TUNNEL_PAGE_MAX_BYTES / TUNNEL_CHUNK_BYTES) + 1;
    const chunk = Buffer.alloc(TUNNEL_CHUNK_BYTES).toString('base64');
    for (let seq = 0; seq < count; seq++)
      answer(SN, { rid: sent[0].rid, seq, ...(seq === 0 ? { status: 200 } : {}), body: chunk, more: true });
    expect((await pending).body).toBeNull();
  });

  it('close ends every waiting request', async () => {
    const { tunnel } = setup();
    const pending = tunnel.request(SN, req);
    tunnel.close();
    await expect(pending).rejects.toMatchObject({ reason: 'closed' });
  });
});
