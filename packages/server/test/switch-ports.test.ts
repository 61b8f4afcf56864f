import type { SimulatedDevice } from '@beacon/agent';
import type { SwitchConfigInput, SwitchPoeList, SwitchView } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configRevisions, deviceState, devices } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Switch ports (issue 10, docs/decisions/0039): every rule of the `switch` section answers its
 * catalogue code and leaves the stored revision as it was; a save reaches the simulated switch (its
 * reported revision matches, its running document holds it, its ports and PoE follow it); offline,
 * local-management and upgrading switches are refused on the server.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: '3000' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function device(model = 'BS-S1008P'): Promise<SimulatedDevice> {
  const sn = testSn('S');
  const d = await simulateOnline(server, sn, { model });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const path = (sn: string) => `/projects/${projectId}/devices/${sn}/switch`;
const read = async (sn: string) => (await owner.client.get<SwitchView>(path(sn))).body.data;
const save = (sn: string, expectedRevision: number, section: SwitchConfigInput) =>
  owner.client.request<SwitchView>('PUT', path(sn), { expectedRevision, switch: section, reason: 'test' });

const applied = (sn: string, revision: number) =>
  waitFor(async () => {
    const row = await deviceRow(server, sn);
    return row?.configStatus === 'applied' && row.reportedRevision === revision;
  }, `revision ${revision} applied`);

const stored = async (sn: string) => ({
  revisions: (await server.database.db.select().from(configRevisions).where(eq(configRevisions.sn, sn)))
    .length,
  revision: (await deviceRow(server, sn))?.desiredRevision,
});

const trunk = { id: 1, mode: 'trunk' as const, pvid: 1, allowed: [10, 20] };

/** Each rule of SPEC.md §3 Switch port and §5 with the code it answers (BS-S1008P: 8 PoE + 2 SFP, 65 W). */
const RULES: { label: string; section: SwitchConfigInput; code: number; field: string }[] = [
  { label: 'a port the model lacks', section: { ports: [{ id: 11 }] }, code: 16, field: 'switch.ports.0.id' },
  {
    label: 'a port listed twice',
    section: { ports: [{ id: 2 }, { id: 2 }] },
    code: 16,
    field: 'switch.ports.1.id',
  },
  { label: 'a PVID of 0', section: { ports: [{ id: 1, pvid: 0 }] }, code: 16, field: 'switch.ports.0.pvid' },
  {
    label: 'a PVID of 4095',
    section: { ports: [{ id: 1, pvid: 4095 }] },
    code: 16,
    field: 'switch.ports.0.pvid',
  },
  {
    label: 'an allowed VLAN equal to the PVID',
    section: { ports: [{ ...trunk, allowed: [1, 10] }] },
    code: 16,
    field: 'switch.ports.0.allowed',
  },
  {
    label: 'stripped and allowed VLANs the same',
    section: { ports: [{ ...trunk, stripped: [20] }] },
    code: 16,
    field: 'switch.ports.0.stripped',
  },
  {
    label: 'a trunk without allowed VLANs',
    section: { ports: [{ id: 1, mode: 'trunk', allowed: [] }] },
    code: 16,
    field: 'switch.ports.0.allowed',
  },
  {
    label: 'an access port with VLAN lists',
    section: { ports: [{ id: 1, mode: 'access', allowed: [10] }] },
    code: 16,
    field: 'switch.ports.0.allowed',
  },
  {
    label: 'an allowed VLAN out of range',
    section: { ports: [{ ...trunk, allowed: [5000] }] },
    code: 16,
    field: 'switch.ports.0.allowed',
  },
  {
    label: 'more than 100 allowed VLANs',
    section: { ports: [{ ...trunk, allowed: Array.from({ length: 101 }, (_, i) => 100 + i) }] },
    code: 16,
    field: 'switch.ports.0.allowed',
  },
  {
    label: 'a speed faster than the port',
    section: { ports: [{ id: 1, speed: 10000 }] },
    code: 16,
    field: 'switch.ports.0.speed',
  },
  {
    label: 'half duplex at auto speed',
    section: { ports: [{ id: 1, duplex: 'half' }] },
    code: 16,
    field: 'switch.ports.0.duplex',
  },
  {
    label: 'half duplex on an SFP port',
    section: { ports: [{ id: 9, speed: 100, duplex: 'half' }] },
    code: 16,
    field: 'switch.ports.0.duplex',
  },
  {
    label: 'a port name with a non-ASCII character',
    section: { ports: [{ id: 1, name: 'caméra' }] },
    code: 16,
    field: 'switch.ports.0.name',
  },
  {
    label: 'PoE on a port without PoE',
    section: { ports: [{ id: 9, poe: { enabled: true, power: 0 } }] },
    code: 2,
    field: 'switch.ports.0.poe',
  },
  {
    label: 'a PoE power over 30 W',
    section: { ports: [{ id: 1, poe: { enabled: true, power: 31 } }] },
    code: 16,
    field: 'switch.ports.0.poe.power',
  },
  {
    label: "PoE limits over the switch's 65 W budget",
    section: {
      ports: [1, 2, 3].map((id) => ({ id, poe: { enabled: true, power: 30 } })),
    },
    code: 5260,
    field: 'switch.ports',
  },
  {
    label: 'an aggregation group of one port',
    section: { ports: [{ id: 1, aggregation: 1 }] },
    code: 5015,
    field: 'switch.ports.0.aggregation',
  },
  {
    label: 'an aggregation group 9',
    section: { ports: [{ id: 1, aggregation: 9 }] },
    code: 5015,
    field: 'switch.ports.0.aggregation',
  },
  {
    label: 'an aggregation group of an SFP and an electrical port',
    section: {
      ports: [
        { id: 8, aggregation: 2 },
        { id: 9, aggregation: 2 },
      ],
    },
    code: 5015,
    field: 'switch.ports.1.aggregation',
  },
  {
    label: 'an aggregation group with different VLANs',
    section: {
      ports: [
        { id: 1, aggregation: 1 },
        { id: 2, aggregation: 1, pvid: 10 },
      ],
    },
    code: 5015,
    field: 'switch.ports.1.aggregation',
  },
  {
    label: 'an aggregation group with a port switched off',
    section: {
      ports: [
        { id: 1, aggregation: 1 },
        { id: 2, aggregation: 1, enabled: false },
      ],
    },
    code: 5015,
    field: 'switch.ports.1.aggregation',
  },
  {
    label: 'a management VLAN no port carries',
    section: { managementVlan: 99 },
    code: 5013,
    field: 'switch.managementVlan',
  },
  {
    label: 'a management VLAN of 4095',
    section: { managementVlan: 4095 },
    code: 16,
    field: 'switch.managementVlan',
  },
  {
    label: 'a static IP with the host part all 0s',
    section: { ip: { mode: 'static', ip: '192.168.1.0', mask: '255.255.255.0' } },
    code: 16,
    field: 'switch.ip.ip',
  },
  {
    label: 'a static IP starting with 127',
    section: { ip: { mode: 'static', ip: '127.0.0.5', mask: '255.0.0.0' } },
    code: 16,
    field: 'switch.ip.ip',
  },
  {
    label: 'an invalid mask',
    section: { ip: { mode: 'static', ip: '192.168.1.5', mask: '255.0.255.0' } },
    code: 16,
    field: 'switch.ip.mask',
  },
  {
    label: 'a gateway on another segment',
    section: { ip: { mode: 'static', ip: '192.168.1.5', mask: '255.255.255.0', gateway: '192.168.2.1' } },
    code: 107,
    field: 'switch.ip.gateway',
  },
  {
    label: 'the same DNS twice',
    section: {
      ip: { mode: 'static', ip: '192.168.1.5', mask: '255.255.255.0', dns: ['8.8.8.8', '8.8.8.8'] },
    },
    code: 110,
    field: 'switch.ip.dns',
  },
];

describe('switch port rules', () => {
  let sw: SimulatedDevice;
  let revision: number;

  beforeAll(async () => {
    sw = await device();
    const first = await save(sw.sn, 0, { ports: [{ id: 3, name: 'start' }] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    revision = first.body.data.revision;
  });

  it.each(RULES)('$label answers $code and changes nothing', async ({ section, code, field }) => {
    const before = await stored(sw.sn);
    const res = await save(sw.sn, revision, section);
    expect({ code: res.body.code, fields: Object.keys(res.body.fields ?? {}) }).toEqual({
      code,
      fields: [field],
    });
    expect(await stored(sw.sn)).toEqual(before);
  });

  it('a valid aggregation group, a trunk with stripped VLANs and a static IP are accepted', async () => {
    const res = await save(sw.sn, revision, {
      managementVlan: 10,
      ip: { mode: 'static', ip: '10.0.10.5', mask: '255.255.255.0', gateway: '10.0.10.1', dns: ['1.1.1.1'] },
      ports: [
        { id: 1, aggregation: 1, mode: 'trunk', pvid: 1, allowed: [10, 20], stripped: [30] },
        { id: 2, aggregation: 1, mode: 'trunk', pvid: 1, allowed: [20, 10], stripped: [30] },
        { id: 4, poe: { enabled: true, power: 30 } },
        { id: 5, poe: { enabled: true, power: 30 } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(revision + 1);
    revision = res.body.data.revision;
  });

  it('a save based on a stale revision is refused with 5120', async () => {
    const res = await save(sw.sn, revision - 1, { ports: [{ id: 3, name: 'late' }] });
    expect(res.body.code).toBe(5120);
  });

  it('two saves based on the same revision: one wins, the other is refused with 5120', async () => {
    const results = await Promise.all([
      save(sw.sn, revision, { ports: [{ id: 6, name: 'one' }] }),
      save(sw.sn, revision, { ports: [{ id: 6, name: 'two' }] }),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 5120]);
    const winner = results.find((r) => r.body.code === 0)!;
    expect((await stored(sw.sn)).revision).toBe(revision + 1);
    expect((await read(sw.sn)).switch.ports.find((p) => p.id === 6)?.name).toBe(
      winner.body.data.switch.ports.find((p) => p.id === 6)?.name,
    );
    revision += 1;
  });

  it('the switch itself refuses a section that breaks a rule (sent through the generic configuration route)', async () => {
    // The generic route stores any well-formed document; the switch checks the rules like a real one.
    const doc = {
      ...(sw.document as Record<string, unknown>),
      switch: { ports: [{ id: 1, aggregation: 3 }] },
    };
    const res = await owner.client.request<{ revision: number }>(
      'PUT',
      `/projects/${projectId}/devices/${sw.sn}/config`,
      { expectedRevision: revision, document: doc },
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    revision = res.body.data.revision;
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sw.sn);
      return r?.configStatus === 'failed' ? r : null;
    }, 'refused by the switch');
    expect(row.configCode).toBe(5015);
    expect((await read(sw.sn)).configStatus).toBe('failed');
  });

  it('a device that is not a switch is refused with 2', async () => {
    const ap = await device('BA-W1200C');
    const res = await save(ap.sn, 0, {});
    expect(res.body.code).toBe(2);
    expect((await owner.client.get(path(ap.sn))).body.code).toBe(2);
  });
});

describe('a save reaches the switch', () => {
  it('the switch runs the section, reports its revision, and its ports and PoE follow it', async () => {
    // A switch with a powered device on a PoE port (the simulated wiring depends on the serial).
    let sw: SimulatedDevice | null = null;
    let powered: number | undefined;
    for (let i = 0; i < 4 && powered === undefined; i++) {
      const d = await device();
      const live = await waitFor(async () => {
        const v = await read(d.sn);
        return v.live.length ? v.live : null;
      }, 'ports reported');
      powered = live.find((p) => (p.poe?.power ?? 0) > 0)?.id;
      sw = d;
    }
    expect(powered, 'a powered port').toBeDefined();
    const sn = sw!.sn;
    const view = await read(sn);
    expect(view.ports).toHaveLength(10);
    expect(view.poeBudget).toBe(65);
    expect(view.switch.ports).toHaveLength(10);
    expect(view.poe).toMatchObject({ budget: 65 });
    const usedBefore = view.poe!.used;
    const drawn = view.live.find((p) => p.id === powered)!.poe!.power;
    expect(usedBefore).toBeGreaterThanOrEqual(drawn);

    // Turn PoE off on the powered port, switch port 10 off, name a port, a static IP.
    const ports = view.switch.ports.map((p) => ({
      ...p,
      ...(p.id === powered ? { poe: { enabled: false, power: 0 } } : {}),
      ...(p.id === 10 ? { enabled: false } : {}),
      ...(p.id === 1 ? { name: 'to-core' } : {}),
    }));
    const res = await save(sn, view.revision, {
      ...view.switch,
      ip: { mode: 'static', ip: '192.168.50.9', mask: '255.255.255.0', gateway: '192.168.50.1', dns: [] },
      ports,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const revision = res.body.data.revision;
    expect(res.body.data.configStatus).toBe('pending');
    await applied(sn, revision);

    const doc = sw!.document as {
      switch?: { ports: { id: number; name: string; enabled: boolean }[]; ip: unknown };
    };
    expect(doc.switch?.ports.find((p) => p.id === 1)?.name).toBe('to-core');
    expect(doc.switch?.ports.find((p) => p.id === 10)?.enabled).toBe(false);
    expect(doc.switch?.ip).toMatchObject({ mode: 'static', ip: '192.168.50.9' });

    // The reported state follows: no power on the port, port 10 down, budget used went down by its draw.
    const after = await waitFor(async () => {
      const v = await read(sn);
      const p = v.live.find((x) => x.id === powered);
      return p && p.poe?.enabled === false ? v : null;
    }, 'PoE off reported');
    expect(after.live.find((p) => p.id === powered)!.poe!.power).toBe(0);
    expect(after.live.find((p) => p.id === 10)).toMatchObject({ enabled: false, link: false });
    // The switch reports watts to 0.1 W, the total and each port rounded apart: within 0.2 W.
    expect(Math.abs(after.poe!.used - (usedBefore - drawn))).toBeLessThanOrEqual(0.2);
    expect(after.poe!.remaining).toBeCloseTo(65 - after.poe!.used, 1);
    expect(after).toMatchObject({ revision, reportedRevision: revision, configStatus: 'applied' });
    // The switch announced its new address.
    await waitFor(async () => (await deviceRow(server, sn))?.ip === '192.168.50.9', 'static IP reported');

    // The project's PoE list has the same numbers.
    const list = (await owner.client.get<SwitchPoeList>(`/projects/${projectId}/switch-poe`)).body.data;
    const item = list.items.find((i) => i.sn === sn)!;
    expect(item).toMatchObject({ budget: 65 });
    expect(item.used + item.remaining).toBeCloseTo(65, 1);

    // One audit row for the save.
    const audits = await server.database.db.select().from(auditLog).where(eq(auditLog.entityId, sn));
    expect(audits.filter((a) => a.action === 'switch-ports-save')).toHaveLength(1);

    // Kept across a reboot: the switch boots with the same document and revision.
    const reboot = await owner.client.post(`/projects/${projectId}/devices/${sn}/actions/reboot`, {});
    expect(reboot.body.code, JSON.stringify(reboot.body)).toBe(0);
    await waitFor(async () => (await deviceRow(server, sn))?.status === 8, 'rebooting', 10_000).catch(
      () => null,
    );
    await waitFor(
      async () => (await deviceRow(server, sn))?.status === 1 && sw!.status === 1,
      'back online',
      20_000,
    );
    expect(sw!.revision).toBe(revision);
    expect((sw!.document as typeof doc).switch?.ports.find((p) => p.id === 1)?.name).toBe('to-core');
  });
});

describe('copying a configuration between switches', () => {
  it("copies the ports, not the source switch's static address", async () => {
    const [a, b] = await Promise.all([device(), device()]);
    const source = await read(a.sn);
    const ports = source.switch.ports.map((p) => (p.id === 2 ? { ...p, name: 'copied' } : p));
    const res = await save(a.sn, 0, {
      ...source.switch,
      ip: { mode: 'static', ip: '192.168.60.2', mask: '255.255.255.0', gateway: '', dns: [] },
      ports,
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    await applied(a.sn, res.body.data.revision);
    const copy = await owner.client.post(`/projects/${projectId}/devices/${a.sn}/actions/copy-config`, {
      targets: [b.sn],
    });
    expect(copy.body.code, JSON.stringify(copy.body)).toBe(0);
    await waitFor(
      async () => (await deviceRow(server, b.sn))?.configStatus === 'applied' && b.revision > 0,
      'copied',
    );
    const doc = b.document as { switch: { ip: { mode: string }; ports: { id: number; name: string }[] } };
    expect(doc.switch.ports.find((p) => p.id === 2)?.name).toBe('copied');
    expect(doc.switch.ip.mode).toBe('dhcp');
  });
});

describe('devices that cannot be configured', () => {
  it.each([
    { label: 'offline', set: { status: 0 }, code: 36 },
    { label: 'upgrading', set: { status: 3, operation: 'upgrade' }, code: 71 },
  ])('$label: $code, nothing stored', async ({ set, code }) => {
    const sn = testSn('S');
    const now = new Date();
    await server.database.db.insert(devices).values({
      sn,
      projectId,
      model: 'BS-S1008P',
      type: 'switch',
      firstSeenAt: now,
    });
    await server.database.db.update(deviceState).set(set).where(eq(deviceState.sn, sn));
    const res = await save(sn, 0, { ports: [{ id: 1, name: 'x' }] });
    expect(res.body.code).toBe(code);
    expect(await stored(sn)).toEqual({ revisions: 0, revision: 0 });
    expect((await read(sn)).blocked).toBe(code);
  });

  it('local management: 76, nothing stored', async () => {
    const sn = testSn('S');
    await server.database.db.insert(devices).values({
      sn,
      projectId,
      model: 'BS-S1008P',
      type: 'switch',
      managementMode: 0,
      firstSeenAt: new Date(),
    });
    await server.database.db.update(deviceState).set({ status: 1 }).where(eq(deviceState.sn, sn));
    const res = await save(sn, 0, {});
    expect(res.body.code).toBe(76);
    expect(await stored(sn)).toEqual({ revisions: 0, revision: 0 });
  });
});
