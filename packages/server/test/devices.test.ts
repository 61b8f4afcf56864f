import type { SimulatedDevice } from '@beacon/agent';
import type { DeviceDetailView, DeviceView, ImportResultView, ProjectView } from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deviceEvents, deviceState, projectMembers } from '../src/db/schema.ts';
import {
  type DeviceValues,
  deviceRow,
  insertProject,
  insertSeen,
  simulate,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

let server: TestServer;
let owner: TestAccount;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ MQTT_SHARE_GROUP: `t${Math.random().toString(36).slice(2, 10)}` });
  owner = await createAccount(server);
});
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

function xlsx(rows: unknown[][], bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Devices');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

function upload(bytes: Buffer, name: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

const ap = { model: 'BA-W1200C', type: 'ap' };

describe('adding a device by serial number', () => {
  it('adds a powered-on device and shows it online with every field', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('A');
    running.push(await simulateOnline(server, sn, { model: 'BS-S2024P' }));
    const added = await owner.client.post<DeviceView>(`/projects/${projectId}/devices`, {
      sn: sn.toLowerCase(),
      name: 'Core',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({
      sn,
      name: 'Core',
      model: 'BS-S2024P',
      type: 'switch',
      status: 1,
      statusDisplay: 'success',
      simpleStatus: 'online',
      managementMode: 1,
      provisioned: false,
      portCount: 28,
      configStatus: 'applied',
    });
    const detail = await waitFor(async () => {
      const res = await owner.client.get<DeviceDetailView>(`/projects/${projectId}/devices/${sn}`);
      return res.body.data?.telemetry ? res.body.data : null;
    }, 'telemetry in the detail');
    expect(detail.ports).toHaveLength(28);
    expect(detail.poe).toMatchObject({ total: 370 });
    expect(detail.mac).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    const list = await owner.client.get<Paged<DeviceView>>(`/projects/${projectId}/devices`);
    expect(list.body.data.items.map((d) => [d.sn, d.status])).toEqual([[sn, 1]]);
    const project = await owner.client.get<ProjectView>(`/projects/${projectId}`);
    expect(project.body.data.deviceCount).toBe(1);
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.projectId, projectId));
    expect(audit.map((a) => [a.action, a.entity, a.entityId])).toEqual([['create', 'device', sn]]);
  });

  it('pre-provisions a device that never connected when its model is given; it comes online later', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('P');
    const without = await owner.client.post(`/projects/${projectId}/devices`, { sn });
    expect(without.body).toMatchObject({ code: 5006, fields: { model: expect.any(String) } });
    const unknown = await owner.client.post(`/projects/${projectId}/devices`, { sn, model: 'NOPE-1' });
    expect(unknown.body.code).toBe(2);
    const added = await owner.client.post<DeviceView>(`/projects/${projectId}/devices`, {
      sn,
      model: 'BA-W3000X',
    });
    expect(added.body.data).toMatchObject({
      sn,
      status: 0,
      statusDisplay: 'error',
      provisioned: true,
      type: 'ap',
    });
    running.push(await simulate(server, sn, { model: 'BA-W3000X' }));
    await waitFor(async () => (await deviceRow(server, sn))?.status === 1, 'pre-provisioned device online');
    const res = await owner.client.get<DeviceView>(`/projects/${projectId}/devices/${sn}`);
    expect(res.body.data).toMatchObject({ status: 1, provisioned: false, name: `BA-W3000X-${sn.slice(-6)}` });
  });

  describe('a pre-provisioned device whose hello breaks the project rules goes back to the pool', () => {
    async function preProvisionThenConnect(projectId: number, given: string, real: string) {
      const sn = testSn('R');
      const added = await owner.client.post(`/projects/${projectId}/devices`, { sn, model: given });
      expect(added.body.code).toBe(0);
      running.push(await simulate(server, sn, { model: real }));
      await waitFor(async () => (await deviceRow(server, sn))?.status === 1, `${sn} online`);
      // The check runs right after the hello is stored.
      await waitFor(async () => {
        const row = await deviceRow(server, sn);
        return row?.model === real && (row.projectId === null || row.projectId === projectId);
      }, `${sn} checked`);
      // A device's messages are handled one after another, and the check is part of handling its
      // hello: once a telemetry message of it is stored, the check has finished, whatever it did.
      await waitFor(
        async () => (await deviceRow(server, sn))?.telemetryAt,
        `${sn} telemetry after the check`,
      );
      return sn;
    }

    async function ruleEvents(sn: string) {
      return server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
    }

    it('a mesh node added as an AP to a WLAN project: unbound, alarm 93, audit row, no longer listed', async () => {
      const projectId = await insertProject(server, owner.id);
      const sn = await preProvisionThenConnect(projectId, 'BA-W1200C', 'BM-M1500');
      await waitFor(async () => (await deviceRow(server, sn))?.projectId === null, `${sn} unbound`);
      const row = await deviceRow(server, sn);
      expect(row).toMatchObject({
        projectId: null,
        model: 'BM-M1500',
        type: 'mesh',
        status: 1,
        boundAt: null,
      });
      const [event] = await ruleEvents(sn);
      expect(event).toMatchObject({ projectId, event: 'project-rules', level: 'critical' });
      expect(event.data).toMatchObject({ code: 93, model: 'BM-M1500', type: 'mesh' });
      const audits = await server.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, sn), eq(auditLog.action, 'unbind')));
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({ projectId, accountId: null, accountName: 'system' });
      expect((await owner.client.get(`/projects/${projectId}/devices/${sn}`)).status).toBe(410);
      // Back in the pool: it can be added where it fits (it has connected, no model needed).
      const mesh = await insertProject(server, owner.id, 1);
      expect((await owner.client.post(`/projects/${mesh}/devices`, { sn })).body.code).toBe(0);
    });

    it('a second gateway (added as an AP) in a project that has one: unbound with 5008', async () => {
      const projectId = await insertProject(server, owner.id);
      const gateway = testSn('G');
      running.push(await simulateOnline(server, gateway, { model: 'BG-R1200' }));
      expect((await owner.client.post(`/projects/${projectId}/devices`, { sn: gateway })).body.code).toBe(0);
      const sn = await preProvisionThenConnect(projectId, 'BA-W1200C', 'BG-R3000P');
      await waitFor(async () => (await deviceRow(server, sn))?.projectId === null, `${sn} unbound`);
      expect((await ruleEvents(sn))[0].data).toMatchObject({ code: 5008, type: 'router' });
      expect((await deviceRow(server, gateway))?.projectId).toBe(projectId);
    });

    it('another model of a type the project takes stays bound, as reported', async () => {
      const projectId = await insertProject(server, owner.id);
      const sn = await preProvisionThenConnect(projectId, 'BA-W1200C', 'BA-O1800');
      expect(await deviceRow(server, sn)).toMatchObject({ projectId, model: 'BA-O1800', type: 'ap' });
      expect(await ruleEvents(sn)).toEqual([]);
    });
  });

  it('refuses a model that does not match what the device reported (2)', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('M');
    await insertSeen(server, sn, ap);
    const res = await owner.client.post(`/projects/${projectId}/devices`, { sn, model: 'BS-S1016' });
    expect(res.body.code).toBe(2);
  });

  it('refuses a device bound to another project, or already in this one (5005)', async () => {
    const a = await insertProject(server, owner.id);
    const other = await createAccount(server);
    const b = await insertProject(server, other.id);
    const sn = testSn('B');
    await insertSeen(server, sn, ap);
    expect((await owner.client.post(`/projects/${a}/devices`, { sn })).body.code).toBe(0);
    const again = await owner.client.post(`/projects/${a}/devices`, { sn });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 5005 });
    const elsewhere = await other.client.post(`/projects/${b}/devices`, { sn });
    expect(elsewhere.body).toMatchObject({
      code: 5005,
      message: 'The device is already bound to another project',
    });
    expect((await deviceRow(server, sn))?.projectId).toBe(a);
  });

  it('keeps cable-free and traditional WLAN devices apart (93)', async () => {
    const wlan = await insertProject(server, owner.id, 0);
    const mesh = await insertProject(server, owner.id, 1);
    const node = testSn('N');
    const apSn = testSn('Q');
    await insertSeen(server, node, { model: 'BM-M1500', type: 'mesh', meshRole: 'secondary' });
    await insertSeen(server, apSn, ap);
    expect((await owner.client.post(`/projects/${wlan}/devices`, { sn: node })).body.code).toBe(93);
    expect((await owner.client.post(`/projects/${mesh}/devices`, { sn: apSn })).body.code).toBe(93);
    expect((await owner.client.post(`/projects/${mesh}/devices`, { sn: node })).body.code).toBe(0);
    expect((await owner.client.post(`/projects/${wlan}/devices`, { sn: apSn })).body.code).toBe(0);
  });

  it('allows one gateway and one cable-free router per project (5008)', async () => {
    const wlan = await insertProject(server, owner.id, 0);
    const mesh = await insertProject(server, owner.id, 1);
    const [gw1, gw2, p1, p2, s1] = ['G', 'G', 'R', 'R', 'S'].map((k) => testSn(k));
    await insertSeen(server, gw1, { model: 'BG-R1200', type: 'router' });
    await insertSeen(server, gw2, { model: 'BG-R3000P', type: 'router' });
    await insertSeen(server, p1, { model: 'BM-M1500', type: 'mesh', meshRole: 'primary', deviceMode: 0 });
    await insertSeen(server, p2, { model: 'BM-M1500', type: 'mesh', meshRole: 'primary', deviceMode: 0 });
    await insertSeen(server, s1, { model: 'BM-M1500', type: 'mesh', meshRole: 'secondary', deviceMode: 1 });
    expect((await owner.client.post(`/projects/${wlan}/devices`, { sn: gw1 })).body.code).toBe(0);
    const second = await owner.client.post(`/projects/${wlan}/devices`, { sn: gw2 });
    expect({ status: second.status, code: second.body.code }).toEqual({ status: 409, code: 5008 });
    // A pre-provisioned gateway counts too.
    const provisioned = await owner.client.post(`/projects/${wlan}/devices`, {
      sn: testSn('H'),
      model: 'BG-R1200',
    });
    expect(provisioned.body.code).toBe(5008);
    expect((await owner.client.post(`/projects/${mesh}/devices`, { sn: p1 })).body.code).toBe(0);
    expect((await owner.client.post(`/projects/${mesh}/devices`, { sn: p2 })).body.code).toBe(5008);
    expect((await owner.client.post(`/projects/${mesh}/devices`, { sn: s1 })).body.code).toBe(0);
  });

  it('refuses writes on a read-only share (5032) and on the demo project (5031)', async () => {
    const projectId = await insertProject(server, owner.id);
    const reader = await createAccount(server);
    await server.database.db
      .insert(projectMembers)
      .values({ projectId, accountId: reader.id, permission: 'r', acceptedAt: new Date() });
    const sn = testSn('R');
    await insertSeen(server, sn, ap);
    expect((await reader.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(5032);
    expect((await reader.client.post('/projects/500000/devices', { sn })).body.code).toBe(5031);
    expect((await reader.client.get(`/projects/${projectId}/devices`)).body.code).toBe(0);
    expect((await deviceRow(server, sn))?.projectId).toBeNull();
  });
});

describe('batch import', () => {
  it('adds the good rows and gives every row its result', async () => {
    const projectId = await insertProject(server, owner.id);
    const other = await createAccount(server);
    const elsewhere = await insertProject(server, other.id);
    const seen = testSn('I');
    const live = testSn('L');
    const bound = testSn('J');
    const meshNode = testSn('K');
    const gw1 = testSn('G');
    const gw2 = testSn('G');
    const fresh = testSn('F');
    const unknown = testSn('U');
    await insertSeen(server, seen, ap);
    await insertSeen(server, bound, { ...ap, projectId: elsewhere });
    await insertSeen(server, meshNode, { model: 'BM-M1500', type: 'mesh' });
    await insertSeen(server, gw1, { model: 'BG-R1200', type: 'router' });
    await insertSeen(server, gw2, { model: 'BG-R1200', type: 'router' });
    running.push(await simulateOnline(server, live));
    const file = xlsx([
      ['Serial number', 'Model', 'Name', 'Remark'],
      [seen, '', 'Lobby', 'Ground floor'],
      [live, '', '', ''],
      ['SHORT', '', '', ''],
      [seen, '', '', ''],
      [bound, '', '', ''],
      [],
      [meshNode, '', '', ''],
      [gw1, '', '', ''],
      [gw2, '', '', ''],
      [fresh, 'BS-S1016', 'Floor-2', ''],
      [unknown, '', '', ''],
    ]);
    const res = await owner.client.request<ImportResultView>(
      'POST',
      `/projects/${projectId}/devices/import`,
      upload(file, 'devices.xlsx'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data.rows.map((r) => [r.row, r.sn, r.result, r.code]);
    expect(rows).toEqual([
      [2, seen, 'added', 0],
      [3, live, 'added', 0],
      [4, 'SHORT', 'invalid', 16],
      [5, seen, 'invalid', 16],
      [6, bound, 'bound', 5005],
      [8, meshNode, 'wrong_type', 93],
      [9, gw1, 'added', 0],
      [10, gw2, 'wrong_type', 5008],
      [11, fresh, 'added', 0],
      [12, unknown, 'invalid', 5006],
    ]);
    expect(res.body.data).toMatchObject({ total: 10, added: 4 });
    const list = await owner.client.get<Paged<DeviceView>>(`/projects/${projectId}/devices?sort=sn`);
    expect(list.body.data.items.map((d) => d.sn).sort()).toEqual([seen, live, gw1, fresh].sort());
    expect(list.body.data.items.find((d) => d.sn === seen)).toMatchObject({
      name: 'Lobby',
      remark: 'Ground floor',
    });
    expect(list.body.data.items.find((d) => d.sn === live)?.status).toBe(1);
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.projectId, projectId), eq(auditLog.action, 'import')));
    expect(audit).toHaveLength(1);
  });

  it('reads xls files and sheets without a header row', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('X');
    await insertSeen(server, sn, ap);
    const res = await owner.client.request<ImportResultView>(
      'POST',
      `/projects/${projectId}/devices/import`,
      upload(xlsx([[sn]], 'biff8'), 'old.XLS'),
    );
    expect(res.body.data?.rows).toEqual([{ row: 1, sn, result: 'added', code: 0, message: 'Added' }]);
  });

  it('refuses files that are not xls/xlsx (5041), unreadable (5018), empty (5019) or over 500 rows (5020)', async () => {
    const projectId = await insertProject(server, owner.id);
    const post = (bytes: Buffer, name: string) =>
      owner.client.request('POST', `/projects/${projectId}/devices/import`, upload(bytes, name));
    expect((await post(Buffer.from('sn\nABC'), 'devices.csv')).body.code).toBe(5041);
    expect((await post(Buffer.from('not a spreadsheet at all'), 'devices.xlsx')).body.code).toBe(5018);
    expect((await post(xlsx([['Serial number', 'Model']]), 'devices.xlsx')).body.code).toBe(5019);
    const many = [
      ['Serial number'],
      ...Array.from({ length: 501 }, (_, i) => [`MANY${String(i).padStart(12, '0')}`]),
    ];
    const tooMany = await post(xlsx(many), 'devices.xlsx');
    expect({ status: tooMany.status, code: tooMany.body.code }).toEqual({ status: 400, code: 5020 });
    const noFile = await owner.client.post(`/projects/${projectId}/devices/import`, {});
    expect(noFile.body.code).toBe(16);
  });

  it('serves the template, which imports as is', async () => {
    const res = await fetch(`${server.url}/api/v1/devices/import-template`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = XLSX.read(new Uint8Array(await res.arrayBuffer()));
    const grid = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(grid[0]).toEqual(['Serial number', 'Model', 'Name', 'Remark']);
    const anonymous = await fetch(`${server.url}/api/v1/devices/import-template`);
    expect(anonymous.status).toBe(401);
  });
});

describe('the device list', () => {
  let projectId: number;
  const sns: Record<string, string> = {};

  beforeAll(async () => {
    projectId = await insertProject(server, owner.id);
    const rows: [string, Partial<DeviceValues> & { model: string; type: string }][] = [
      ['gw', { model: 'BG-R1200', type: 'router', ip: '10.1.0.1', mac: 'AA:00:00:00:00:01', portCount: 5 }],
      ['sw', { model: 'BS-S1008P', type: 'switch', ip: '10.1.0.2', mac: 'AA:00:00:00:00:02', portCount: 10 }],
      ['ap1', { ...ap, ip: '10.1.0.11', mac: 'AA:00:00:00:01:01', portCount: 1, status: 8, name: 'Lobby' }],
      ['ap2', { ...ap, ip: '10.1.0.12', mac: 'AA:00:00:00:01:02', portCount: 1, status: 0, name: 'Kitchen' }],
      [
        'ap3',
        {
          model: 'BA-W3000X',
          type: 'ap',
          ip: '192.168.5.3',
          mac: 'BB:00:00:00:01:03',
          portCount: 1,
          status: 3,
          remark: 'roof',
          desiredConfig: { vlans: [{ id: 30, name: 'guests' }] },
          desiredRevision: 1,
        },
      ],
    ];
    for (const [key, values] of rows) {
      sns[key] = testSn(key.slice(0, 2).toUpperCase());
      await insertSeen(server, sns[key], { projectId, boundAt: new Date(), ...values });
    }
  });

  const list = async (query: string) => {
    const res = await owner.client.get<Paged<DeviceView>>(`/projects/${projectId}/devices?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const names = async (query: string) => (await list(query)).items.map((d) => d.sn);

  it('searches and filters by ip, model, port, name, vlan, mac, type and status', async () => {
    expect(await names('ip=10.1.0.1&sort=ip')).toEqual([sns.gw, sns.ap1, sns.ap2]);
    expect(await names('model=w3000')).toEqual([sns.ap3]);
    expect(await names('port=10')).toEqual([sns.sw]);
    expect(await names('name=lob')).toEqual([sns.ap1]);
    expect(await names('vlan=30')).toEqual([sns.ap3]);
    expect(await names('mac=aa000000010&sort=sn')).toEqual([sns.ap1, sns.ap2]);
    expect(await names('mac=AA-00-00-00-00-02')).toEqual([sns.sw]);
    expect(await names('type=router')).toEqual([sns.gw]);
    expect(await names('status=offline')).toEqual([sns.ap2]);
    expect((await names('status=online')).sort()).toEqual([sns.gw, sns.sw, sns.ap1, sns.ap3].sort());
    expect(await names('q=roof')).toEqual([sns.ap3]);
    expect(await names('q=100%25')).toEqual([]);
  });

  it('answers each list’s total as the rows it pages through, kept (type, online/offline) or counted', async () => {
    for (const query of [
      '',
      'type=ap',
      'status=online',
      'status=offline',
      'type=ap&status=online',
      'type=switch&status=offline',
      'status=8',
      'q=roof',
      'type=ap&name=o',
    ]) {
      const page = await list(`${query}&pageSize=200`);
      expect(page.total, query).toBe(page.items.length);
    }
    expect((await list('type=ap&status=online')).total).toBe(2);
    // A device going offline moves from one total to the other.
    await server.database.db.update(deviceState).set({ status: 0 }).where(eq(deviceState.sn, sns.sw));
    expect((await list('status=offline')).total).toBe(2);
    expect((await list('status=online')).total).toBe(3);
    await server.database.db.update(deviceState).set({ status: 1 }).where(eq(deviceState.sn, sns.sw));
    expect((await list('status=online')).total).toBe(4);
  });

  it('orders by the shown name, case-folded, forwards and backwards', async () => {
    const shown = (await list('pageSize=200')).items.map((d) => d.name.toLowerCase());
    expect(shown).toEqual([...shown].sort());
    const back = (await list('order=desc&pageSize=200')).items.map((d) => d.name.toLowerCase());
    expect(back).toEqual([...shown].reverse());
  });

  it('sorts, pages, and maps each status to its display', async () => {
    const page1 = await list('sort=ip&order=desc&pageSize=2&page=1');
    const page2 = await list('sort=ip&order=desc&pageSize=2&page=2');
    expect(page1.total).toBe(5);
    expect([...page1.items, ...page2.items].map((d) => d.ip)).toEqual([
      '192.168.5.3',
      '10.1.0.2',
      '10.1.0.12',
      '10.1.0.11',
    ]);
    const all = await list('sort=status');
    expect(all.items.map((d) => [d.status, d.statusDisplay, d.simpleStatus])).toEqual([
      [0, 'error', 'offline'],
      [1, 'success', 'online'],
      [1, 'success', 'online'],
      [3, 'error', 'upgrade'],
      [8, 'warning', 'reboot'],
    ]);
    expect((await owner.client.get(`/projects/${projectId}/devices?sort=bogus`)).body.code).toBe(16);
  });

  it('renames and changes remarks, never to empty', async () => {
    const path = `/projects/${projectId}/devices/${sns.gw}`;
    const res = await owner.client.patch<DeviceView>(path, { name: 'Edge gateway', remark: 'rack 2' });
    expect(res.body.data).toMatchObject({ name: 'Edge gateway', remark: 'rack 2' });
    expect((await owner.client.patch(path, { name: '  ' })).body.code).toBe(16);
    expect((await owner.client.patch(path, { remark: '' })).body.code).toBe(16);
    expect((await owner.client.get<DeviceView>(path)).body.data.name).toBe('Edge gateway');
    expect(
      (await owner.client.patch(`/projects/${projectId}/devices/NOTINTHISPROJECT01`, { name: 'x' })).body
        .code,
    ).toBe(410);
  });
});

describe('names and remarks (SPEC.md §5: 1 to 32 printable ASCII, not empty)', () => {
  it('refuses other scripts, control characters and more than 32 characters, when adding and renaming', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('N');
    await insertSeen(server, sn, { ...ap, projectId, boundAt: new Date() });
    const path = `/projects/${projectId}/devices/${sn}`;
    for (const bad of ['Café', '会议室', 'tab\there', 'x'.repeat(33)]) {
      expect((await owner.client.patch(path, { name: bad })).body.code, bad).toBe(16);
      expect((await owner.client.patch(path, { remark: bad })).body.code, bad).toBe(16);
    }
    const free = testSn('F');
    await insertSeen(server, free, ap);
    const add = await owner.client.post(`/projects/${projectId}/devices`, {
      sn: free,
      name: 'Salle à manger',
    });
    expect(add.body.code).toBe(16);
    const ok = await owner.client.patch<DeviceView>(path, { name: 'x'.repeat(32), remark: 'Rack #2 (top)' });
    expect(ok.body.data).toMatchObject({ name: 'x'.repeat(32), remark: 'Rack #2 (top)' });
  });
});

describe('a device no longer in the project', () => {
  it('answers 410 (device deleted) on every route that names it by serial', async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('G');
    await insertSeen(server, sn, { ...ap, projectId, boundAt: new Date() });
    expect((await owner.client.delete(`/projects/${projectId}/devices/${sn}`)).body.code).toBe(0);
    const base = `/projects/${projectId}/devices/${sn}`;
    const calls: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { name: 'Gone' }],
      ['DELETE', base],
      ['GET', `${base}/commands`],
      ['GET', `${base}/maintenance`],
      ['POST', `${base}/actions/reboot`, {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await owner.client.request(method, path, body);
      expect({ call: `${method} ${path}`, status: res.status, code: res.body.code }).toEqual({
        call: `${method} ${path}`,
        status: 410,
        code: 410,
      });
    }
  });
});

describe('removing a device', () => {
  it('unbinds (back to the unclaimed pool) or deletes (forgotten)', async () => {
    const projectId = await insertProject(server, owner.id);
    const kept = testSn('U');
    const gone = testSn('D');
    await insertSeen(server, kept, { ...ap, projectId, name: 'Old name', boundAt: new Date() });
    await insertSeen(server, gone, { ...ap, projectId, boundAt: new Date() });
    const unbind = await owner.client.delete(`/projects/${projectId}/devices/${kept}`);
    expect(unbind.body).toMatchObject({ code: 0, data: { sn: kept, mode: 'unbind' } });
    expect(await deviceRow(server, kept)).toMatchObject({ projectId: null, name: '', remark: '' });
    const del = await owner.client.delete(`/projects/${projectId}/devices/${gone}?mode=delete`);
    expect(del.body).toMatchObject({ code: 0, data: { sn: gone, mode: 'delete' } });
    expect(await deviceRow(server, gone)).toBeUndefined();
    expect(
      (
        await server.gateway.commands.send(
          gone,
          'locate',
          { seconds: 5 },
          { accountId: null, account: 'test' },
        )
      ).code,
    ).toBe(410);
    // The unbound device can join another project.
    const next = await insertProject(server, owner.id);
    expect((await owner.client.post(`/projects/${next}/devices`, { sn: kept })).body.code).toBe(0);
    const missing = await owner.client.delete(`/projects/${projectId}/devices/${kept}`);
    // SPEC.md §8: a device no longer in the project answers 410 (device deleted).
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 410, code: 410 });
    expect((await owner.client.delete(`/projects/${projectId}/devices/${kept}?mode=burn`)).body.code).toBe(
      16,
    );
  });

  it("returns a project's devices to the pool when the project is deleted", async () => {
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('Z');
    await insertSeen(server, sn, { ...ap, projectId });
    expect((await owner.client.delete(`/projects/${projectId}`)).body.code).toBe(0);
    expect((await deviceRow(server, sn))?.projectId).toBeNull();
  });
});
