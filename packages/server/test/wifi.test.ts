import { type SimulatedDevice, startDevice } from '@beacon/agent';
import {
  type ConfigDiffView,
  type ConfigRevisionList,
  DEMO_PROJECT_IDS,
  type ProjectView,
  type WifiDocumentInput,
  type WifiPolicyInput,
  type WifiView,
} from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configRevisions, devices, wifiRevisions } from '../src/db/schema.ts';
import type { Deps } from '../src/deps.ts';
import { seedDemoDevices } from '../src/gateway/demo.ts';
import { seedDemoWifiPolicies } from '../src/wifi/demo.ts';
import { deviceRow, insertDevice, insertProject, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Wi-Fi policies (issue 11, decision 0047): every rule of SPEC.md §5, §8 and §9 refused with its
 * code and nothing stored; a policy reaching every targeted simulated AP (reported revision and
 * the SSIDs they broadcast); a timer shutdown taking an SSID off the air in simulated time, in the
 * project's time zone; single-policy writes, rollback, secrets, mesh rules, joining devices.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let ap1: SimulatedDevice;
let ap2: SimulatedDevice;
let tri: SimulatedDevice;
const running: SimulatedDevice[] = [];

/** The APs' wall clock: Asia/Shanghai (the project's zone) 07:59 on 25 November 2026. */
let simNow = Date.UTC(2026, 10, 24, 23, 59, 0);
const MINUTE = 60_000;

async function join(model: string, kind: string): Promise<SimulatedDevice> {
  const sn = testSn(kind);
  const d = await startDevice({
    url: server.gateway.brokerUrl,
    sn,
    model,
    factoryKey: server.config.factoryKey,
    timeScale: 0.01,
    telemetryMs: 500,
    backoffMinMs: 100,
    backoffMaxMs: 400,
    keepalive: 5,
    clientEvents: false,
    clock: () => simNow,
  });
  running.push(d);
  await waitFor(async () => (await deviceRow(server, sn))?.status === 1, `${sn} online`);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: '3000' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  ap1 = await join('BA-W1200C', 'A');
  ap2 = await join('BA-W1200C', 'A');
  tri = await join('BA-W3000X', 'T');
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const path = (tail = '', id = projectId) => `/projects/${id}/wifi${tail}`;
const get = async (id = projectId) => (await owner.client.get<WifiView>(path('', id))).body.data;
const save = (expectedRevision: number, document: WifiDocumentInput, id = projectId) =>
  owner.client.request<WifiView>('PUT', path('', id), { expectedRevision, document, reason: 'test' });
const create = (expectedRevision: number, policy: WifiPolicyInput, id = projectId) =>
  owner.client.request<WifiView>('POST', path('/policies', id), { expectedRevision, policy });

const STAFF: WifiPolicyInput = {
  name: 'staff',
  ssid: 'Staff-WiFi',
  encryption: 2,
  cipher: 'aes',
  password: 'correct-horse',
  bands: ['2.4G', '5G'],
  maxClients: 64,
};

const policy = (n: number, extra: Partial<WifiPolicyInput> = {}): WifiPolicyInput => ({
  ...STAFF,
  name: `net_${n}`,
  ssid: `Net-${n}`,
  maxClients: 10,
  ...extra,
});

type Doc = { policies: WifiPolicyInput[] };
const one = (extra: Partial<WifiPolicyInput>): Doc => ({ policies: [{ ...STAFF, ...extra }] });
const sns = () => [ap1.sn, ap2.sn, tri.sn];

/** Each rule: a document and the code it is refused with. */
const RULES: [string, () => Doc, number][] = [
  ['33 policies (40)', () => ({ policies: Array.from({ length: 33 }, (_, i) => policy(i)) }), 40],
  [
    '8 all-device networks (5320)',
    () => ({ policies: Array.from({ length: 8 }, (_, i) => policy(i)) }),
    5320,
  ],
  [
    '31 specified-device networks (5321)',
    () => ({
      policies: Array.from({ length: 31 }, (_, i) => policy(i, { scope: 'devices', devices: [ap1.sn] })),
    }),
    5321,
  ],
  [
    'two guest networks (5322)',
    () => ({ policies: [policy(1, { guest: true }), policy(2, { guest: true })] }),
    5322,
  ],
  ['a reserved name (5044)', () => one({ name: 'app_default_0' }), 5044],
  ['a reserved name in capitals (5044)', () => one({ name: 'APP_DEFAULT_3' }), 5044],
  ['a name with a space', () => one({ name: 'staff net' }), 16],
  ['a name of 33 characters', () => one({ name: 'n'.repeat(33) }), 16],
  ['two policies of one name (88)', () => ({ policies: [policy(1), policy(2, { name: 'net_1' })] }), 88],
  ['an empty SSID (92)', () => one({ ssid: '' }), 92],
  ['an SSID of 33 bytes', () => one({ ssid: `${'é'.repeat(16)}x` }), 16],
  [
    'a duplicate SSID (24)',
    () => ({ policies: [policy(1), policy(2, { ssid: 'Net-1', bands: ['5G'] })] }),
    24,
  ],
  ['an unknown encryption mode', () => one({ encryption: 9 }), 16],
  ['a password of 7 characters (6)', () => one({ password: 'short12' }), 6],
  ['a password of 64 characters that is not hex (6)', () => one({ password: 'g'.repeat(64) }), 6],
  ['a password with a non-ASCII character (6)', () => one({ password: 'pässword1' }), 6],
  ['TKIP alone with WPA2-PSK', () => one({ cipher: 'tkip' }), 16],
  ['no cipher with WPA2-PSK', () => one({ cipher: null }), 16],
  ['a cipher WPA3-SAE does not allow', () => one({ encryption: 3, cipher: 'tkip+aes' }), 16],
  ['a key update interval of 59 s', () => one({ keyUpdateInterval: 59 }), 16],
  ['a key update interval of 100000 s', () => one({ keyUpdateInterval: 100_000 }), 16],
  ['a VLAN of 4095', () => one({ vlan: 4095 }), 16],
  ['a VLAN of 0', () => one({ vlan: 0 }), 16],
  ['max clients 0', () => one({ maxClients: 0 }), 16],
  ['max clients 129', () => one({ maxClients: 129 }), 16],
  ['max clients 10.5', () => one({ maxClients: 10.5 }), 16],
  ['a negative guest rate', () => one({ guest: true, guestRateKbps: -1 }), 16],
  ['WPA2 enterprise without RADIUS', () => one({ encryption: 8, radius: null }), 16],
  [
    'WPA2 enterprise with a RADIUS port of 70000',
    () => one({ encryption: 8, radius: { ip: '10.0.0.5', port: 70_000, password: 'radius-secret' } }),
    16,
  ],
  [
    'WPA enterprise with a RADIUS address that is no IP',
    () => one({ encryption: 7, radius: { ip: '10.0.0', port: 1812, password: 'radius-secret' } }),
    16,
  ],
  [
    'WPA2 enterprise without a RADIUS password',
    () => one({ encryption: 8, radius: { ip: '10.0.0.5', port: 1812, password: '' } }),
    16,
  ],
  ['no band', () => one({ bands: [] }), 16],
  [
    'a band the chosen devices do not have (414)',
    () => one({ scope: 'devices', devices: [ap1.sn], bands: ['5G-1'] }),
    414,
  ],
  ['chosen devices but none chosen (135)', () => one({ scope: 'devices', devices: [] }), 135],
  ['a chosen device outside the project', () => one({ scope: 'devices', devices: ['ZZZZZZZZZZZZZZZZ'] }), 16],
  [
    'nine networks on one radio of a device (136)',
    () => ({
      policies: [
        ...Array.from({ length: 7 }, (_, i) => policy(i)),
        policy(7, { scope: 'devices', devices: [ap1.sn] }),
        policy(8, { scope: 'devices', devices: [ap1.sn] }),
      ],
    }),
    136,
  ],
  [
    'more than 128 clients on one band of a device (91)',
    () => ({ policies: [policy(1, { maxClients: 100 }), policy(2, { maxClients: 29 })] }),
    91,
  ],
  [
    'five timer shutdown periods (59)',
    () =>
      one({
        schedule: ['01', '03', '05', '07', '09'].map((h) => ({ start: `${h}:00`, end: `${h}:30` })),
      }),
    59,
  ],
  [
    'overlapping timer shutdown periods (59)',
    () =>
      one({
        schedule: [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      }),
    59,
  ],
  [
    'a timer shutdown that ends before it starts (59)',
    () => one({ schedule: [{ start: '09:00', end: '08:00' }] }),
    59,
  ],
  ['an empty timer shutdown period (59)', () => one({ schedule: [{ start: '', end: '08:00' }] }), 59],
];

describe('Wi-Fi policies', () => {
  it('start empty: every Wi-Fi device listed, not configured', async () => {
    const view = await get();
    expect(view).toMatchObject({
      revision: 0,
      netMode: 0,
      timeZone: 'Asia/Shanghai',
      document: { policies: [] },
    });
    expect(view.devices.map((d) => d.sn).sort()).toEqual(sns().sort());
    expect(view.devices.every((d) => d.sync === 0)).toBe(true);
    expect(view.devices.find((d) => d.sn === tri.sn)?.bands).toEqual(['2.4G', '5G-1', '5G-2']);
  });

  it.each(RULES)('refuse %s with its code and store nothing', async (_name, doc, code) => {
    const before = await get();
    const res = await save(before.revision, doc());
    expect(res.body.code, JSON.stringify(res.body)).toBe(code);
    const after = await get();
    expect(after.revision).toBe(before.revision);
    expect(after.document).toEqual(before.document);
  });

  it('a new policy reaches every AP: each reports the revision and broadcasts the SSID', async () => {
    const before = await get();
    const res = await create(before.revision, STAFF);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(before.revision + 1);
    expect(res.body.data.document.policies).toEqual([
      expect.objectContaining({ id: 1, name: 'staff', ssid: 'Staff-WiFi', password: '********' }),
    ]);
    // Pending as soon as it is saved.
    expect(res.body.data.devices.every((d) => d.status === 'pending')).toBe(true);
    await waitFor(async () => {
      const v = await get();
      return v.progress.applied === 3 && v.devices.every((d) => d.sync === 1);
    }, 'all applied and configured');
    for (const d of [ap1, ap2, tri]) {
      const row = await deviceRow(server, d.sn);
      expect(row?.reportedRevision).toBe(row?.desiredRevision);
      expect(d.ssids).toEqual(['Staff-WiFi']);
      expect(d.document.timeZone).toBe('Asia/Shanghai');
    }
    // The tri-band AP runs "5G" on both of its 5 GHz radios.
    expect((tri.document.wifi as { bands: string[] }[])[0]?.bands).toEqual(['2.4G', '5G-1', '5G-2']);
    expect((ap1.document.wifi as { password: string }[])[0]?.password).toBe('correct-horse');
    // The running SSIDs as the devices report them (telemetry).
    await waitFor(
      async () => (await get()).devices.every((d) => d.runningSsids.join() === 'Staff-WiFi'),
      'reported running SSIDs',
    );
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.projectId, projectId), eq(auditLog.action, 'wifi-policy-create')));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits[0])).not.toContain('correct-horse');
  });

  it('keeps secrets sealed at rest and as ******** in answers; ******** sent back keeps them', async () => {
    const [stored] = await server.database.db
      .select()
      .from(wifiRevisions)
      .where(eq(wifiRevisions.projectId, projectId));
    expect(JSON.stringify(stored?.document)).not.toContain('correct-horse');
    const row = await deviceRow(server, ap1.sn);
    const [rev] = await server.database.db
      .select()
      .from(configRevisions)
      .where(and(eq(configRevisions.sn, ap1.sn), eq(configRevisions.revision, row!.desiredRevision)));
    expect(JSON.stringify(rev?.document)).not.toContain('correct-horse');
    const view = await get();
    const staff = view.document.policies[0]!;
    const res = await owner.client.request<WifiView>('PUT', path(`/policies/${staff.id}`), {
      expectedRevision: view.revision,
      policy: { ...staff, hidden: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(
      () => (ap1.document.wifi as { hidden: boolean; password: string }[])[0]?.hidden === true,
      'hidden SSID applied',
    );
    expect((ap1.document.wifi as { password: string }[])[0]?.password).toBe('correct-horse');
  });

  it('a policy for chosen devices reaches only them; a guest network carries its rate and isolation', async () => {
    const view = await get();
    const res = await create(view.revision, {
      name: 'guests',
      ssid: 'Guest-WiFi',
      encryption: 0,
      bands: ['2.4G'],
      guest: true,
      guestRateKbps: 2048,
      clientIsolation: true,
      scope: 'devices',
      devices: [ap2.sn],
      maxClients: 32,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(() => ap2.ssids.includes('Guest-WiFi'), 'guest network on the chosen AP');
    expect(ap1.ssids).toEqual(['Staff-WiFi']);
    expect(tri.ssids).toEqual(['Staff-WiFi']);
    expect((ap2.document.wifi as Record<string, unknown>[]).find((w) => w.guest)).toMatchObject({
      ssid: 'Guest-WiFi',
      guestRateKbps: 2048,
      clientIsolation: true,
      bands: ['2.4G'],
      cipher: null,
    });
    const after = await get();
    expect(after.devices.find((d) => d.sn === ap2.sn)?.policies).toHaveLength(2);
  });

  it('WPA-PSK turns signal extension off', async () => {
    const view = await get();
    const res = await create(view.revision, {
      ...policy(40),
      encryption: 1,
      cipher: 'tkip',
      signalExtension: true,
      scope: 'devices',
      devices: [tri.sn],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = res.body.data.document.policies.find((p) => p.name === 'net_40');
    expect(made).toMatchObject({ encryption: 1, signalExtension: false });
    const del = await owner.client.request<WifiView>(
      'DELETE',
      path(`/policies/${made!.id}?expectedRevision=${res.body.data.revision}`),
    );
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.data.document.policies.map((p) => p.name)).toEqual(['staff', 'guests']);
  });

  it('single-policy writes: a stale revision is 5120, an unknown policy 5033, a failure names policy.x', async () => {
    const view = await get();
    const staff = view.document.policies[0]!;
    const stale = await create(view.revision - 1, policy(50));
    expect(stale.body.code).toBe(5120);
    const missing = await owner.client.request('PUT', path('/policies/999'), {
      expectedRevision: view.revision,
      policy: policy(51),
    });
    expect(missing.body.code).toBe(5033);
    const bad = await owner.client.request<WifiView>('PUT', path(`/policies/${staff.id}`), {
      expectedRevision: view.revision,
      policy: { ...staff, ssid: 'Guest-WiFi' },
    });
    expect(bad.body.code).toBe(24);
    expect((bad.body as { fields?: Record<string, string> }).fields).toHaveProperty('policy.ssid');
    const results = await Promise.all([create(view.revision, policy(52)), create(view.revision, policy(53))]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 5120]);
  });

  it('a timer shutdown takes the SSID off the air at its start and back at its end, in the project zone', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    const view = await get();
    const staff = view.document.policies.find((p) => p.name === 'staff')!;
    // 07:59 in Shanghai: the shutdown 08:00-09:00 has not begun.
    simNow = Date.UTC(2026, 10, 24, 23, 59, 0);
    const res = await owner.client.request<WifiView>('PUT', path(`/policies/${staff.id}`), {
      expectedRevision: view.revision,
      policy: { ...staff, schedule: [{ start: '08:00', end: '09:00' }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(
      () => (ap1.document.wifi as { ssid: string; schedule: unknown[] }[])[0]?.schedule.length === 1,
      'schedule applied',
    );
    expect(ap1.ssids).toContain('Staff-WiFi');
    // 08:00:30: every AP takes the network off the air within a simulated minute and reports it.
    simNow += 90_000;
    await waitFor(() => [ap1, ap2, tri].every((d) => !d.ssids.includes('Staff-WiFi')), 'SSID off');
    // The others stay on the air.
    expect(ap2.ssids).toContain('Guest-WiFi');
    await waitFor(
      async () => (await get()).devices.every((d) => !d.runningSsids.includes('Staff-WiFi')),
      'devices report the SSID off',
    );
    // 09:00:30: back on.
    simNow += 60 * MINUTE;
    await waitFor(() => [ap1, ap2, tri].every((d) => d.ssids.includes('Staff-WiFi')), 'SSID back on');
    await waitFor(
      async () => (await get()).devices.every((d) => d.runningSsids.includes('Staff-WiFi')),
      'devices report the SSID on',
    );
  });

  it("a project's new time zone reaches the devices: the same shutdown runs on the new clock", async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    // 09:00:30 in Shanghai is 02:00:30 in Berlin (UTC+1 in November): outside 08:00-09:00 still.
    const res = await owner.client.request<ProjectView>('PATCH', `/projects/${projectId}`, {
      timeZone: 'Europe/Berlin',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(() => ap1.document.timeZone === 'Europe/Berlin', 'zone applied');
    expect(ap1.ssids).toContain('Staff-WiFi');
    // 08:10 in Berlin.
    simNow = Date.UTC(2026, 10, 25, 7, 10, 0);
    await waitFor(() => !ap1.ssids.includes('Staff-WiFi'), 'off on the Berlin clock');
    simNow = Date.UTC(2026, 10, 25, 9, 0, 0);
    await waitFor(() => ap1.ssids.includes('Staff-WiFi'), 'on again');
  });

  it('lists, compares and rolls back; the rollback reaches the devices', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    const list = await owner.client.get<ConfigRevisionList>(path('/revisions'));
    expect(list.status).toBe(200);
    const head = list.body.data.items[0]!.revision;
    expect(list.body.data.total).toBe(head);
    const diff = await owner.client.get<ConfigDiffView>(path(`/diff?from=1&to=${head}`));
    expect(diff.status).toBe(200);
    expect(diff.body.data.changes.map((c) => c.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^policies\.1/)]),
    );
    expect(JSON.stringify(diff.body.data)).not.toContain('correct-horse');
    const res = await owner.client.request<WifiView>('POST', path('/rollback'), {
      revision: 1,
      expectedRevision: head,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(head + 1);
    expect(res.body.data.document.policies.map((p) => p.name)).toEqual(['staff']);
    await waitFor(() => !ap2.ssids.includes('Guest-WiFi'), 'guest network gone from the AP');
    await waitFor(async () => (await get()).devices.every((d) => d.sync === 1), 'configured again');
  });

  it('a Wi-Fi device that joins later gets the policies in its add', async () => {
    const sn = testSn('A');
    const added = await owner.client.request('POST', `/projects/${projectId}/devices`, {
      sn,
      model: 'BA-W1200C',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const row = await deviceRow(server, sn);
    expect(row?.configStatus).toBe('pending');
    const late = await startDevice({
      url: server.gateway.brokerUrl,
      sn,
      model: 'BA-W1200C',
      factoryKey: server.config.factoryKey,
      timeScale: 0.01,
      telemetryMs: 500,
      backoffMinMs: 100,
      backoffMaxMs: 400,
      clientEvents: false,
    });
    running.push(late);
    await waitFor(() => late.ssids.join() === 'Staff-WiFi', 'the late AP broadcasts the policy');
    await server.database.db.update(devices).set({ projectId: null }).where(eq(devices.sn, sn));
  });
});

describe('Wi-Fi policies in a cable-free (mesh) project', () => {
  let meshProject: number;
  beforeAll(async () => {
    meshProject = await insertProject(server, owner.id, 1);
    const seen = new Date();
    for (const kind of ['M', 'M']) {
      await insertDevice(server.database, {
        sn: testSn(kind),
        projectId: meshProject,
        model: 'BM-M1500',
        type: 'mesh',
        status: 0,
        firstSeenAt: seen,
        lastSeenAt: seen,
      });
    }
  });

  it('refuses a duplicate SSID with 89 and chosen devices with 93', async () => {
    const dup = await save(0, { policies: [policy(1), policy(2, { ssid: 'Net-1' })] }, meshProject);
    expect(dup.body.code).toBe(89);
    const view = await get(meshProject);
    const chosen = await save(
      0,
      { policies: [policy(1, { scope: 'devices', devices: [view.devices[0]!.sn] })] },
      meshProject,
    );
    expect(chosen.body.code).toBe(93);
  });

  it("keeps the mesh's last network (26); offline nodes get it as pending", async () => {
    const made = await create(0, policy(1), meshProject);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.devices.map((d) => [d.status, d.note])).toEqual([
      ['pending', 'offline'],
      ['pending', 'offline'],
    ]);
    const id = made.body.data.document.policies[0]!.id;
    const del = await owner.client.request(
      'DELETE',
      path(`/policies/${id}?expectedRevision=${made.body.data.revision}`, meshProject),
    );
    expect(del.body.code).toBe(26);
    expect((await get(meshProject)).revision).toBe(made.body.data.revision);
  });
});

describe('the demo projects’ Wi-Fi (npm start)', () => {
  it('is written once through the real commit, compiled into the demo APs, and read-only to users', async () => {
    await seedDemoDevices(server.database);
    const deps = {
      ...server,
      now: server.clock.now,
      log: server.app.log,
    } as unknown as Deps;
    await seedDemoWifiPolicies(deps);
    const wlan = await get(DEMO_PROJECT_IDS.WLAN);
    expect(wlan.revision).toBe(1);
    expect(wlan.document.policies.map((p) => [p.ssid, p.guest])).toEqual([
      ['Demo-Staff', false],
      ['Demo-Guest', true],
    ]);
    // The secrets are sealed and never shown, as for a user's policy.
    expect(wlan.document.policies[0].password).not.toBe('demo-staff-2026');
    const pending = await server.database.db
      .select({ sn: configRevisions.sn })
      .from(configRevisions)
      .where(eq(configRevisions.projectId, DEMO_PROJECT_IDS.WLAN));
    expect(new Set(pending.map((r) => r.sn))).toEqual(
      new Set(Array.from({ length: 10 }, (_, i) => `DEMOAP${String(i + 1).padStart(10, '0')}`)),
    );
    expect((await get(DEMO_PROJECT_IDS.MESH)).document.policies.map((p) => p.ssid)).toEqual(['Demo-Home']);
    // Idempotent: a restart keeps what is there.
    await seedDemoWifiPolicies(deps);
    expect((await get(DEMO_PROJECT_IDS.WLAN)).revision).toBe(1);
    const refused = await save(1, { policies: [] }, DEMO_PROJECT_IDS.WLAN);
    expect(refused.body.code).toBe(5031);
    expect((await get(DEMO_PROJECT_IDS.WLAN)).document.policies).toHaveLength(2);
  });
});
