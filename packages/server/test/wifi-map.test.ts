import { createHash } from 'node:crypto';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import type { FloorPlanView, WifiMapView } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices, floorPlans } from '../src/db/schema.ts';
import { deviceRow, insertDevice, insertProject, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { buildPng, floorPlanPng } from './helpers/png.ts';
import { postSplitUpload } from './helpers/uploads.ts';

/**
 * The Wi-Fi map (issue 13, decisions 0052-0053) over HTTP: floor plans uploaded, stored with their
 * checksum and streamed back byte for byte; a file over 10 MB, a file that is no PNG or JPEG, and an
 * image whose header declares too many pixels refused with 79 and the reason, leaving no row and no
 * audit; the layout (scale, walls, AP positions) kept across reads; the AP rules (5391, 5392, 5393);
 * the 20 floors limit (5390); two simulated APs whose reported channel, power and clients the map
 * shows. Who may do what is the permission contract suite's (contract/resources.ts).
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const aps: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  const started = await Promise.all(
    [0, 1].map(() =>
      startDevice({
        url: server.gateway.brokerUrl,
        sn: testSn('W'),
        model: 'BA-W1200C',
        factoryKey: server.config.factoryKey,
        timeScale: 0.01,
        telemetryMs: 300,
        backoffMinMs: 100,
        backoffMaxMs: 400,
        clientEvents: false,
        clients: { population: 6, onlineShare: 1 },
      }),
    ),
  );
  aps.push(...started);
  for (const ap of aps) {
    await waitFor(async () => (await deviceRow(server, ap.sn))?.status === 1, `${ap.sn} online`, 30_000);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, ap.sn));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(aps.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const base = () => `/projects/${projectId}/wifi-map`;
const map = async () => (await owner.client.get<WifiMapView>(base())).body.data;

function upload(bytes: Uint8Array, fileName = 'plan.png', query = '') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  return owner.client.request<FloorPlanView>('POST', `${base()}/plans${query}`, form);
}

async function storedPlans() {
  return server.database.db
    .select({ id: floorPlans.id })
    .from(floorPlans)
    .where(eq(floorPlans.projectId, projectId));
}

async function uploadAudits() {
  return server.database.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.projectId, projectId),
        eq(auditLog.entity, 'floor-plan'),
        eq(auditLog.action, 'upload'),
      ),
    );
}

/** A PNG header (signature + IHDR) declaring the size, followed by `padding` bytes. */
function pngDeclaring(width: number, height: number, padding = 64): Buffer {
  const png = buildPng(16, 16);
  const out = Buffer.concat([png.subarray(0, 33), Buffer.alloc(padding)]);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  return out;
}

describe('floor plan uploads', () => {
  it('stores a PNG with its size and checksum and streams it back byte for byte', async () => {
    const png = floorPlanPng(500, 300);
    const res = await upload(png, 'ground.png', '?name=Ground%20floor');
    expect(res.body.code).toBe(0);
    const plan = res.body.data;
    expect(plan).toMatchObject({
      name: 'Ground floor',
      mime: 'image/png',
      width: 500,
      height: 300,
      size: png.length,
      checksum: createHash('sha256').update(png).digest('hex'),
      ratioRecommended: true,
      scale: null,
      walls: [],
      aps: [],
    });

    const image = await fetch(`${server.url}${plan.imageUrl}`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toMatch(/immutable/);
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    const again = await fetch(`${server.url}${plan.imageUrl}`, {
      headers: { cookie: `token=${owner.client.cookieToken}`, 'if-none-match': image.headers.get('etag')! },
    });
    expect(again.status).toBe(304);

    // Without a session the image is not served.
    expect((await fetch(`${server.url}${plan.imageUrl}`)).status).toBe(401);
    expect((await map()).plans.map((p) => p.id)).toEqual([plan.id]);
  });

  it('takes a JPEG, measured from its start-of-frame header', async () => {
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
      0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0xe8, 0x03, 0x01, 0x22, 0x00, 0x02,
      0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9,
    ]);
    const res = await upload(jpeg, 'first.jpg');
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ mime: 'image/jpeg', width: 1000, height: 600, name: 'Floor 2' });
  });

  it('refuses a file over 10 MB, a non-image and an oversized image with 79 and stores nothing', async () => {
    const before = { plans: await storedPlans(), audits: await uploadAudits() };

    // A real PNG header, padded one byte past 10 MB.
    const big = pngDeclaring(1000, 600, 10 * 1024 * 1024 + 1 - 33);
    expect(big.length).toBe(10 * 1024 * 1024 + 1);
    const tooBig = await upload(big);
    expect(tooBig.body).toMatchObject({
      code: 79,
      message: 'Failed to upload: the image is larger than 10 MB',
      fields: { file: 'the image is larger than 10 MB' },
    });
    // The limit met exactly by one read of the parser (http/upload.ts): still refused.
    const split = await postSplitUpload(`${server.url}/api/v1${base()}/plans`, owner.client.cookieToken, {
      file: big,
      filename: 'big.png',
      contentType: 'image/png',
      splitAt: 10 * 1024 * 1024,
    });
    expect(split.code).toBe(79);

    for (const [bytes, name] of [
      [Buffer.from('Just some text, not a floor plan'), 'plan.png'],
      [Buffer.from('GIF89a\x10\x00\x10\x00\x00\x00\x00;'), 'plan.gif'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'plan.svg'],
      [Buffer.from('%PDF-1.7\n%âãÏÓ\n'), 'plan.pdf'],
    ] as const) {
      const res = await upload(bytes, name);
      expect(res.body, name).toMatchObject({
        code: 79,
        message: 'Failed to upload: the file is not a PNG or JPEG image',
      });
    }
    // A decompression bomb: a valid signature and IHDR declaring 50,000 × 50,000 pixels.
    const bomb = await upload(pngDeclaring(50_000, 50_000));
    expect(bomb.body.code).toBe(79);
    expect(bomb.body.message).toMatch(/at most 10,000 pixels a side/);
    // A PNG cut before its IHDR.
    const cut = await upload(buildPng(20, 20).subarray(0, 12));
    expect(cut.body.message).toBe('Failed to upload: the image is damaged: its header gives no size');
    // An empty file.
    const empty = await upload(Buffer.alloc(0));
    expect(empty.body).toMatchObject({ code: 79, message: 'Failed to upload: the file is empty' });

    expect(await storedPlans()).toEqual(before.plans);
    expect(await uploadAudits()).toEqual(before.audits);
  }, 60_000);
});

describe('the layout', () => {
  it('keeps the scale, walls and AP positions across reads and shows what the APs report', async () => {
    const [first] = (await map()).plans;
    const [a, b] = aps.map((d) => d.sn);
    const layout = {
      name: 'Ground floor',
      scale: { x1: 0, y1: 290, x2: 500, y2: 290, metres: 50 },
      walls: [
        { x1: 250, y1: 0, x2: 250, y2: 300, material: 'concrete' },
        { x1: 0, y1: 150, x2: 250, y2: 150, material: 'glass' },
      ],
      aps: [
        { sn: a!, x: 100, y: 100 },
        { sn: b!, x: 400, y: 200 },
      ],
    };
    const saved = await owner.client.request<FloorPlanView>('PUT', `${base()}/plans/${first!.id}`, layout);
    expect(saved.body.code).toBe(0);
    expect(saved.body.data.metresPerPixel).toBeCloseTo(0.1, 6);

    // A new read (as after a reload) answers the same layout; the APs know their plan.
    const view = await map();
    const plan = view.plans.find((p) => p.id === first!.id)!;
    expect({ name: plan.name, scale: plan.scale, walls: plan.walls, aps: plan.aps }).toEqual(layout);
    expect(
      view.aps
        .filter((ap) => ap.planId === plan.id)
        .map((ap) => ap.sn)
        .sort(),
    ).toEqual([a, b].sort());

    // Each AP's radios as the device reports them: channel, width, power; clients counted per AP.
    await waitFor(
      async () => (await map()).aps.every((ap) => ap.radios.length >= 2 && ap.clients > 0),
      'APs report their radios and clients',
      20_000,
    );
    const reported = (await map()).aps.find((ap) => ap.sn === a)!;
    const telemetry = (await deviceRow(server, a!))!.telemetry as {
      radios: { band: string; channel: number; power: number }[];
    };
    for (const radio of reported.radios) {
      const own = telemetry.radios.find((r) => r.band === radio.band)!;
      expect({ channel: radio.channel, power: radio.power }).toEqual({
        channel: own.channel,
        power: own.power,
      });
    }
    expect(reported.clients).toBe(reported.radios.reduce((n, r) => n + r.clients, 0));
    expect(reported.online).toBe(true);
  });

  it('refuses an AP on a second plan (5391), a device that is not an AP (5392), a point off the image (5393)', async () => {
    const [first, second] = (await map()).plans;
    const a = aps[0]!.sn;
    const put = (planId: number, body: unknown) =>
      owner.client.request('PUT', `${base()}/plans/${planId}`, body);
    const stored = await server.database.db
      .select()
      .from(floorPlans)
      .where(eq(floorPlans.projectId, projectId));

    const twice = await put(second!.id, {
      name: 'First',
      scale: null,
      walls: [],
      aps: [{ sn: a, x: 10, y: 10 }],
    });
    expect(twice.body.code).toBe(5391);
    expect(twice.body.message).toBe(`The AP ${a} is already placed on the floor plan Ground floor`);

    const sw = testSn('S');
    await insertDevice(server.database, { sn: sw, projectId, model: 'BS-S1008P', type: 'switch', status: 1 });
    const notAp = await put(second!.id, {
      name: 'First',
      scale: null,
      walls: [],
      aps: [{ sn: sw, x: 10, y: 10 }],
    });
    expect(notAp.body.code).toBe(5392);

    const off = await put(first!.id, { ...first!, aps: [{ sn: a, x: 501, y: 10 }] });
    expect(off.body.code).toBe(5393);

    expect(
      await server.database.db.select().from(floorPlans).where(eq(floorPlans.projectId, projectId)),
    ).toEqual(stored);
  });

  it('keeps at most 20 floor plans (5390) and deletes one with its image', async () => {
    const small = buildPng(32, 32);
    while ((await map()).plans.length < 20) expect((await upload(small)).body.code).toBe(0);
    const over = await upload(small);
    expect(over.body.code).toBe(5390);
    expect((await storedPlans()).length).toBe(20);

    const last = (await map()).plans.at(-1)!;
    const removed = await owner.client.delete<FloorPlanView>(`${base()}/plans/${last.id}`);
    expect(removed.body.code).toBe(0);
    expect((await owner.client.get(`${base()}/plans/${last.id}/image`)).body.code).toBe(5033);
    expect((await map()).plans.length).toBe(19);
  }, 60_000);
});
