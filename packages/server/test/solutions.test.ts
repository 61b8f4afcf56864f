import type {
  ModelView,
  PivotView,
  Recommendation,
  SolutionShareView,
  SolutionSummary,
  SolutionView,
} from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { and, count, eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, customScenarios, projects, solutions } from '../src/db/schema.ts';
import { insertDevice, insertProject, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Solutions, the pivot report, the device information export and the model list (issue 14,
 * docs/decisions/0054-0055), over HTTP on a real PostgreSQL: CRUD with its refusals leaving nothing
 * stored, read-only sharing, the PDF's extracted text, pivot counts against the devices inserted,
 * the xlsx and CSV files read back, and model uploads.
 */

let server: TestServer;
let owner: TestAccount;
let other: TestAccount;
let stranger: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  other = await createAccount(server);
  stranger = await createAccount(server);
});
afterAll(async () => {
  await server?.close();
});

const HOTEL = {
  scenario: 'hotel',
  rooms: 120,
  clientsPerRoom: 3,
  floors: 6,
  broadband: 500,
  maxBandwidthPerLine: 250,
  apModel: 'BA-W1200C',
  gatewayModel: 'BG-R3000P',
  accessSwitchModel: 'BS-S2024P',
  coreSwitchModel: 'BS-S2024P',
};

/** A file answer as bytes (the test client reads text). */
async function download(
  account: TestAccount,
  path: string,
): Promise<{ status: number; type: string; bytes: Buffer; disposition: string }> {
  const res = await fetch(`${account.client.baseUrl}/api/v1${path}`, {
    headers: { cookie: `token=${account.client.cookieToken}` },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    disposition: res.headers.get('content-disposition') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n').replace(/\s+/g, ' ');
}

const solutionCount = async (ownerId: number) =>
  (await server.database.db.select({ n: count() }).from(solutions).where(eq(solutions.ownerId, ownerId)))[0]
    .n;

describe('solutions', () => {
  let id: number;

  it('generates a recommendation without saving it', async () => {
    const res = await owner.client.post<Recommendation>('/solutions/generate', { input: HOTEL });
    expect(res.body.code).toBe(0);
    expect(res.body.data.lines.map((l) => [l.role, l.quantity])).toEqual([
      ['ap', 120],
      ['access_switch', 6],
      ['core_switch', 1],
      ['gateway', 1],
    ]);
    expect(await solutionCount(owner.id)).toBe(0);
  });

  it('creates, lists, reads and edits a solution; each write leaves an audit row', async () => {
    const created = await owner.client.post<SolutionView>('/solutions', {
      name: 'Harbour Hotel',
      input: HOTEL,
    });
    expect(created.body.code).toBe(0);
    id = created.body.data.id;
    expect(created.body.data).toMatchObject({ name: 'Harbour Hotel', scenario: 'hotel', readOnly: false });
    const list = await owner.client.get<SolutionSummary[]>('/solutions');
    expect(list.body.data.map((s) => s.name)).toEqual(['Harbour Hotel']);

    const edited = await owner.client.request<SolutionView>('PUT', `/solutions/${id}`, {
      name: 'Harbour Hotel',
      input: { ...HOTEL, corridorLength: 60 },
    });
    expect(edited.body.code).toBe(0);
    expect(edited.body.data.recommendation.lines[0].quantity).toBe(18);
    const audits = await server.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'solution'), eq(auditLog.entityId, String(id))));
    expect(audits.map((a) => a.action).sort()).toEqual(['create', 'update']);
  });

  it('answers every refusal with its code and leaves the stored solution unchanged', async () => {
    const before = await server.database.db.select().from(solutions).where(eq(solutions.id, id));
    const cases: [Record<string, unknown>, number][] = [
      [{ clientsPerRoom: 0 }, 5048],
      [{ broadband: 0 }, 5048],
      [{ overrides: { accessSwitches: 30 } }, 5049],
      [{ overrides: { aps: 5 } }, 5050],
      [{ apModel: '' }, 5051],
      [{ gatewayModel: 'BG-R1200' }, 5052],
      [{ rooms: 1000 }, 5400],
      [{ scenario: 'stadium' }, 16],
    ];
    for (const [change, code] of cases) {
      const res = await owner.client.request('PUT', `/solutions/${id}`, {
        name: 'Changed',
        input: { ...HOTEL, ...change },
      });
      expect(res.body.code, JSON.stringify(change)).toBe(code);
      expect(res.body.message).toBeTruthy();
    }
    expect(await server.database.db.select().from(solutions).where(eq(solutions.id, id))).toEqual(before);
    const refused = await owner.client.post('/solutions', { name: 'Nope', input: { ...HOTEL, apModel: '' } });
    expect(refused.body.code).toBe(5051);
    expect(await solutionCount(owner.id)).toBe(1);
  });

  it("plans a custom scenario of the account, and refuses another account's", async () => {
    await server.database.db.insert(customScenarios).values({ accountId: owner.id, name: 'Stadium' });
    const mine = await owner.client.post<Recommendation>('/solutions/generate', {
      input: { ...HOTEL, scenario: 'Stadium', rooms: 0, area: 5000, connectedClients: 800 },
    });
    expect(mine.body.code).toBe(0);
    const theirs = await other.client.post('/solutions/generate', {
      input: { ...HOTEL, scenario: 'Stadium' },
    });
    expect(theirs.body.code).toBe(16);
  });

  it('exports a real PDF with the name, the device table and the advice', async () => {
    const file = await download(owner, `/solutions/${id}/pdf`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(file.disposition).toContain('Harbour-Hotel.pdf');
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(file.bytes);
    for (const phrase of [
      'Harbour Hotel',
      'Scenario: Hotel',
      'Device list',
      'BA-W1200C',
      'BS-S2024P',
      'BG-R3000P',
      'Deployment advice',
      'Solution advantages',
      'corridor APs',
    ]) {
      expect(text).toContain(phrase);
    }
    // The AP line's quantity (18 corridor APs) is in the table.
    expect(text).toMatch(/BA-W1200C .*? 18 /);
  });

  it('shares read-only: it appears in the other list, readable and exportable, never writable', async () => {
    const refusedSelf = await owner.client.post(`/solutions/${id}/shares`, { account: owner.email });
    expect(refusedSelf.body.code).toBe(28);
    const missing = await owner.client.post(`/solutions/${id}/shares`, { account: 'nobody@example.com' });
    expect(missing.body.code).toBe(22);
    const shared = await owner.client.post<SolutionShareView>(`/solutions/${id}/shares`, {
      account: other.email,
    });
    expect(shared.body.code).toBe(0);
    expect((await owner.client.post(`/solutions/${id}/shares`, { account: other.email })).body.code).toBe(21);

    const list = await other.client.get<SolutionSummary[]>('/solutions');
    expect(list.body.data).toEqual([expect.objectContaining({ id, readOnly: true, owner: owner.email })]);
    expect(
      (await other.client.get<SolutionView>(`/solutions/${id}`)).body.data.recommendation.lines,
    ).toHaveLength(4);
    expect((await download(other, `/solutions/${id}/pdf`)).status).toBe(200);
    expect(
      (await other.client.request('PUT', `/solutions/${id}`, { name: 'Mine', input: HOTEL })).body.code,
    ).toBe(5401);
    expect((await other.client.delete(`/solutions/${id}`)).body.code).toBe(5401);
    expect((await other.client.post(`/solutions/${id}/shares`, { account: stranger.email })).body.code).toBe(
      5401,
    );
    expect((await other.client.get(`/solutions/${id}/shares`)).body.code).toBe(5401);

    // A stranger cannot tell it exists.
    expect((await stranger.client.get(`/solutions/${id}`)).body.code).toBe(5033);
    expect((await download(stranger, `/solutions/${id}/pdf`)).status).toBe(404);
    expect((await stranger.client.get<SolutionSummary[]>('/solutions')).body.data).toEqual([]);

    const shares = await owner.client.get<SolutionShareView[]>(`/solutions/${id}/shares`);
    expect(shares.body.data.map((s) => s.account)).toEqual([other.email]);
    expect((await owner.client.delete(`/solutions/${id}/shares/${other.id}`)).body.code).toBe(0);
    expect((await other.client.get<SolutionSummary[]>('/solutions')).body.data).toEqual([]);
  });

  it('deletes', async () => {
    expect((await owner.client.delete(`/solutions/${id}`)).body.code).toBe(0);
    expect((await owner.client.get(`/solutions/${id}`)).body.code).toBe(5033);
  });
});

describe('the pivot report and the device export', () => {
  let lyon: number;
  let paris: number;

  beforeAll(async () => {
    lyon = await insertProject(server, owner.id);
    paris = await insertProject(server, owner.id);
    const theirs = await insertProject(server, stranger.id);
    await server.database.db.update(projects).set({ location: 'Lyon' }).where(eq(projects.id, lyon));
    await server.database.db.update(projects).set({ location: 'Paris' }).where(eq(projects.id, paris));
    const seen = new Date();
    const put = (projectId: number, model: string, type: string, activated = true, extra = {}) =>
      insertDevice(server.database, {
        sn: testSn('P'),
        projectId,
        model,
        type,
        name: `${model}-${type}`,
        mac: '00:11:22:33:44:55',
        firstSeenAt: activated ? seen : null,
        ...extra,
      });
    // Lyon: 3 APs (one never online), 1 switch; Paris: 2 APs, 1 gateway; the stranger's: 4 APs.
    await put(lyon, 'BA-W1200C', 'ap', true, { ip: '10.0.0.2', status: 1, firmware: '4.4.0', name: '=cmd' });
    await put(lyon, 'BA-W1200C', 'ap');
    await put(lyon, 'BA-W3000X', 'ap', false);
    await put(lyon, 'BS-S2024P', 'switch');
    await put(paris, 'BA-W1200C', 'ap');
    await put(paris, 'BA-W3000X', 'ap');
    await put(paris, 'BG-R3000P', 'router');
    for (let i = 0; i < 4; i++) await put(theirs, 'BA-W1200C', 'ap');
  });

  it('counts the activated devices the caller sees, with totals and filters', async () => {
    const res = await owner.client.get<PivotView>('/reports/activated-devices?rows=type&columns=location');
    expect(res.body.code).toBe(0);
    const v = res.body.data;
    expect(v.columns).toEqual(['Lyon', 'Paris']);
    expect(v.rows).toEqual([
      { key: 'ap', cells: { Lyon: 2, Paris: 2 }, total: 4 },
      { key: 'router', cells: { Paris: 1 }, total: 1 },
      { key: 'switch', cells: { Lyon: 1 }, total: 1 },
    ]);
    expect(v.columnTotals).toEqual({ Lyon: 3, Paris: 3 });
    expect(v.total).toBe(6);
    expect(v.options.brand).toEqual(['Beacon']);

    const filtered = await owner.client.get<PivotView>(
      '/reports/activated-devices?rows=model&columns=brand&location=Lyon&type=ap',
    );
    expect(filtered.body.data.rows).toEqual([{ key: 'BA-W1200C', cells: { Beacon: 2 }, total: 2 }]);
    const oneProject = await owner.client.get<PivotView>(`/reports/activated-devices?projectId=${paris}`);
    expect(oneProject.body.data.total).toBe(3);
    // Another account's project adds nothing.
    const theirs = await stranger.client.get<PivotView>('/reports/activated-devices');
    expect(theirs.body.data.total).toBe(4);
  });

  it('exports the pivot as xlsx', async () => {
    const file = await download(owner, '/reports/activated-devices/export?rows=type&columns=location');
    expect(file.status).toBe(200);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(file.bytes).Sheets['Activated devices'], {
      header: 1,
    });
    expect(rows).toEqual([
      ['Type \\ Location', 'Lyon', 'Paris', 'Total'],
      ['ap', 2, 2, 4],
      ['router', 0, 1, 1],
      ['switch', 1, 0, 1],
      ['Total', 3, 3, 6],
    ]);
  });

  it("exports the project's devices as xlsx and CSV", async () => {
    const xlsx = await download(owner, `/projects/${lyon}/devices/export?format=xlsx`);
    expect(xlsx.status).toBe(200);
    const rows = XLSX.utils.sheet_to_json<string[]>(XLSX.read(xlsx.bytes).Sheets.Devices, { header: 1 });
    expect(rows[0]).toEqual(['Name', 'Model', 'Type', 'MAC', 'SN', 'Version', 'IP', 'Status', 'Project']);
    expect(rows).toHaveLength(1 + 4);
    const online = rows.find((r) => r[6] === '10.0.0.2')!;
    // A formula-looking name is neutralised.
    expect(online.slice(0, 4)).toEqual(["'=cmd", 'BA-W1200C', 'ap', '00:11:22:33:44:55']);
    expect(online.slice(5)).toEqual(['4.4.0', '10.0.0.2', 'Online', expect.stringMatching(/^dev/)]);

    const csv = await download(owner, `/projects/${lyon}/devices/export?format=csv`);
    expect(csv.type).toContain('text/csv');
    const lines = csv.bytes
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Model,Type,MAC,SN,Version,IP,Status,Project');
    expect(lines).toHaveLength(5);
    expect((await download(stranger, `/projects/${lyon}/devices/export`)).status).toBe(404);
  });
});

describe('the model list', () => {
  it('lists every catalogue model with type, capabilities and image; searchable', async () => {
    const all = await owner.client.get<ModelView[]>('/models');
    expect(all.body.data.length).toBeGreaterThanOrEqual(12);
    const sw = all.body.data.find((m) => m.model === 'BS-S2024P')!;
    expect(sw).toMatchObject({
      type: 'switch',
      ports: 28,
      poePorts: 24,
      poeBudget: 370,
      minVlan: 2,
      maxVlan: 4094,
    });
    expect(sw.capabilities).toContain('poe');
    const image = await download(owner, sw.image.replace('/api/v1', ''));
    expect(image.type).toContain('image/svg+xml');
    expect(image.bytes.toString()).toContain('BS-S2024P');
    const search = await owner.client.get<ModelView[]>('/models?q=outdoor');
    expect(search.body.data.map((m) => m.model)).toContain('BA-O1800');
    expect(search.body.data.every((m) => /outdoor/i.test(m.description))).toBe(true);
    const aps = await owner.client.get<ModelView[]>('/models?type=ap');
    expect(aps.body.data.every((m) => m.type === 'ap')).toBe(true);
  });

  it('uploads a new model for a manufacturer, refuses one that exists with "model already exists"', async () => {
    const body = {
      model: 'ACME-AP9',
      brand: 'Acme',
      type: 'ap',
      description: 'Acme AP',
      ports: 1,
      bands: ['2.4G', '5G'],
    };
    expect((await owner.client.post('/models', body)).body.code).toBe(5402);
    await server.database.db.update(accounts).set({ role: 2 }).where(eq(accounts.id, owner.id));
    const added = await owner.client.post<ModelView>('/models', body);
    expect(added.body.code).toBe(0);
    expect(added.body.data).toMatchObject({ model: 'ACME-AP9', brand: 'Acme', source: 'uploaded' });
    for (const model of ['acme-ap9', 'BA-W1200C', 'ba-w1200c']) {
      const again = await owner.client.post('/models', { ...body, model });
      expect(again.body.code).toBe(5021);
      expect(again.body.message).toBe('The model already exists');
    }
    const listed = await owner.client.get<ModelView[]>('/models?q=acme');
    expect(listed.body.data.map((m) => m.model)).toEqual(['ACME-AP9']);
  });
});
