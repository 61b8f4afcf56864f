import type { SimulatedDevice } from '@beacon/agent';
import {
  type ActionResultView,
  buildFirmwareImage,
  type DeviceLogView,
  type FirmwareView,
  firmwarePublicKey,
} from '@beacon/protocol';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices, firmwareImages } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Devices in the field (issue 17): firmware a device can trust (decision 0061), strict action
 * bodies, the per-client rate limit, and the device's events visible through the API.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

async function device(options: { firmwareKey?: string } = {}): Promise<SimulatedDevice> {
  const sn = testSn('F');
  const d = await simulateOnline(server, sn, {
    model: 'BA-W1200C',
    firmware: '4.2.0',
    timeScale: 0.01,
    ...options,
  });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const action = (sn: string, name: string, body: unknown = {}) =>
  owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

async function upload(version: string): Promise<FirmwareView> {
  const form = new FormData();
  form.append('file', new Blob([buildFirmwareImage('BA-W1200C', version, 8 * 1024)]), `ap-${version}.bin`);
  const res = await owner.client.request<FirmwareView>('POST', `/projects/${projectId}/firmware`, form);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

/**
 * The final outcome of the device's latest upgrade, once it is settled (a failure with the device's
 * own code: the general 5111 of its upload-failed state may be written a moment before its event).
 */
const upgradeOutcome = (sn: string) =>
  waitFor(
    async () => {
      const [row] = await server.database.db
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.sn, sn), eq(deviceCommands.name, 'upgrade')))
        .orderBy(desc(deviceCommands.createdAt))
        .limit(1);
      const settled = row && row.finalState !== null && row.finalState !== 'pending';
      return settled && row.finalCode !== 5111 ? row : null;
    },
    `${sn} upgrade outcome`,
    20_000,
  );

const events = async (sn: string, type: string) =>
  (
    await owner.client.get<{ items: DeviceLogView[] }>(
      `/projects/${projectId}/logs/device?sn=${sn}&type=${type}`,
    )
  ).body.data.items;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('firmware a device can fetch and trust', () => {
  it('an image whose bytes do not match its checksum is refused by the device (5462), recorded as the outcome and as an event', async () => {
    const ap = await device();
    const image = await upload('4.4.0');
    // The stored image changes after its checksum was taken (a damaged or replaced file).
    const [stored] = await server.database.db
      .select({ data: firmwareImages.data })
      .from(firmwareImages)
      .where(eq(firmwareImages.id, image.id));
    const damaged = Buffer.from(stored.data);
    damaged[damaged.length - 1] ^= 0xff;
    await server.database.db
      .update(firmwareImages)
      .set({ data: damaged })
      .where(eq(firmwareImages.id, image.id));
    const before = ap.firmware;
    const res = await action(ap.sn, 'upgrade', { firmwareId: image.id });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const outcome = await upgradeOutcome(ap.sn);
    expect({ state: outcome.finalState, code: outcome.finalCode }).toEqual({ state: 'failed', code: 5462 });
    expect(outcome.finalMessage).toBe('The firmware image checksum does not match');
    expect(ap.firmware).toBe(before);
    await waitFor(async () => (await events(ap.sn, 'upgrade-failed')).length > 0, 'upgrade-failed event');
    const [event] = await events(ap.sn, 'upgrade-failed');
    expect(event.data).toMatchObject({ code: 5462, to: '4.4.0' });
    await waitFor(async () => (await deviceRow(server, ap.sn))?.status === 1, 'online again');
  });

  it('a device built with another public key refuses the signature (5463); one with the key flashes it', async () => {
    const stranger = await device({ firmwareKey: await firmwarePublicKey('42'.repeat(32)) });
    const image = await upload('4.3.1');
    expect((await action(stranger.sn, 'upgrade', { firmwareId: image.id })).body.code).toBe(0);
    const outcome = await upgradeOutcome(stranger.sn);
    expect({ state: outcome.finalState, code: outcome.finalCode }).toEqual({ state: 'failed', code: 5463 });
    expect(outcome.params).toMatchObject({ size: image.size, sha256: image.sha256 });
    expect((outcome.params as { signature?: string }).signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);

    // The same image, as a catalogue version of the project, goes with its URL, size, hash and signature.
    const trusting = await device();
    expect((await action(trusting.sn, 'upgrade', { version: '4.3.1' })).body.code).toBe(0);
    const done = await upgradeOutcome(trusting.sn);
    expect({ state: done.finalState, code: done.finalCode }).toEqual({ state: 'done', code: 0 });
    expect((done.params as { url?: string }).url).toContain(`/api/v1/firmware/${image.id}/download`);
    expect(trusting.firmware).toBe('4.3.1');
  });
});

describe('strict action bodies', () => {
  it('an unknown field is refused with 16 and named; nothing is sent or recorded', async () => {
    const ap = await device();
    const bodies: [string, Record<string, unknown>][] = [
      ['rate-limit', { upKbps: 100, downKbps: 100, client: 'AA:BB:CC:DD:EE:01' }],
      ['reboot', { force: true }],
      ['locate', { seconds: 5, blink: true }],
      ['upgrade', { version: '4.4.0', url: 'http://elsewhere/' }],
      ['remote-management', { enabled: true, url: 'http://169.254.169.254/' }],
      ['reboot-schedule', { enabled: true, days: [1], time: '03:00', zone: 'UTC' }],
    ];
    for (const [name, body] of bodies) {
      const res = await action(ap.sn, name, body);
      const unknown = Object.keys(body).find(
        (k) => !['upKbps', 'downKbps', 'seconds', 'version', 'enabled', 'days', 'time'].includes(k),
      )!;
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 400, code: 16 });
      expect((res.body as unknown as { fields: Record<string, string> }).fields).toMatchObject({
        [unknown]: 'Unknown field',
      });
    }
    const bulk = await owner.client.post(`/projects/${projectId}/devices/actions/led`, {
      sns: [ap.sn],
      params: { on: true, colour: 'red' },
    });
    expect(bulk.body.code).toBe(16);
    const bulkExtra = await owner.client.post(`/projects/${projectId}/devices/actions/led`, {
      sns: [ap.sn],
      params: { on: true },
      also: 1,
    });
    expect(bulkExtra.body.code).toBe(16);
    const recorded = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.sn, ap.sn));
    expect(recorded).toEqual([]);
  });

  it('rate-limit with clientMac limits that client only', async () => {
    const ap = await device();
    const mac = 'AA:BB:CC:00:11:22';
    const res = await action(ap.sn, 'rate-limit', { upKbps: 512, downKbps: 2048, clientMac: mac });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const data = ap.core.store.data;
    expect(data.clientLimits[mac]).toEqual({ upKbps: 512, downKbps: 2048 });
    expect(data.rateLimit).toBeNull();
    // The device-wide limit is its own; lifting the client's limit (0, 0) leaves it.
    expect((await action(ap.sn, 'rate-limit', { upKbps: 1000, downKbps: 1000 })).body.code).toBe(0);
    expect((await action(ap.sn, 'rate-limit', { upKbps: 0, downKbps: 0, clientMac: mac })).body.code).toBe(0);
    expect(ap.core.store.data.clientLimits[mac]).toBeUndefined();
    expect(ap.core.store.data.rateLimit).toEqual({ upKbps: 1000, downKbps: 1000 });
    const bad = await action(ap.sn, 'rate-limit', { upKbps: 1, downKbps: 1, clientMac: 'not-a-mac' });
    expect(bad.body.code).toBe(16);
  });
});

describe('the OpenAPI document', () => {
  it('gives every action body its strict schema, and describes the project enums', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const body = doc.paths['/api/v1/projects/{id}/devices/{sn}/actions/{action}'].post.requestBody!.content[
      'application/json'
    ].schema as {
      oneOf: { title: string; additionalProperties?: boolean; properties?: Record<string, unknown> }[];
    };
    expect(body.oneOf.map((s) => s.title)).toEqual(
      expect.arrayContaining(['reboot', 'upgrade', 'rate-limit', 'remote-management']),
    );
    expect(body.oneOf).toHaveLength(13);
    for (const s of body.oneOf) expect(s.additionalProperties, s.title).toBe(false);
    expect(Object.keys(body.oneOf.find((s) => s.title === 'rate-limit')!.properties!)).toContain('clientMac');
    const bulk = doc.paths['/api/v1/projects/{id}/devices/actions/{action}'].post.requestBody!.content[
      'application/json'
    ].schema as { properties: { params: { oneOf: unknown[] } }; additionalProperties?: boolean };
    expect(bulk.properties.params.oneOf).toHaveLength(13);
    const create = JSON.stringify(doc.paths['/api/v1/projects'].post.requestBody);
    expect(create).toContain('0 WLAN');
    expect(create).toContain('supermarket_mall');
    expect(create).toContain('1 to 16 characters');
  });
});
