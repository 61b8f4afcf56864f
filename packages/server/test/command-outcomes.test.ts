import type { SimulatedDevice } from '@beacon/agent';
import {
  type ActionResultView,
  type BulkActionView,
  buildFirmwareImage,
  type CommandView,
  type FirmwareView,
  type MaintenanceView,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, firmwareImages } from '../src/db/schema.ts';
import {
  deviceRow,
  EventCollector,
  insertProject,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 7: a reboot, reset or upgrade the device answers with 0 is "accepted", not a success; its
 * final outcome follows when the device reports it (back from a new boot, running the new version,
 * upload failed, or gone past the away deadline). Real simulated devices over the real broker.
 */

const DEADLINE_S = 600;

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

async function device(timeScale: number): Promise<SimulatedDevice> {
  const sn = testSn('F');
  const d = await simulateOnline(server, sn, { model: 'BA-W1200C', timeScale });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const action = (sn: string, name: string, body: unknown = {}) =>
  owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

async function commands(ids: string[]): Promise<CommandView[]> {
  const res = await owner.client.get<CommandView[]>(`/projects/${projectId}/commands?ids=${ids.join(',')}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const command = async (id: string) => (await commands([id]))[0]!;

/**
 * A command's final outcome once the due jobs have given one: ticks until it is no longer pending,
 * and says what the watchdog saw if it never is.
 */
async function verdict(id: string): Promise<CommandView['final']> {
  let seen = '';
  return waitFor(
    async () => {
      await server.jobs.tick();
      const c = await command(id);
      const { rows } = await server.database.pool.query(
        `select kind, run_at, attempts from jobs where kind = 'device-away-watchdog'`,
      );
      const row = await deviceRow(server, c.sn);
      seen = JSON.stringify({
        final: c.final,
        status: row?.status,
        lastSeenAt: row?.lastSeenAt,
        now: server.clock.now(),
        jobs: rows,
      });
      return c.final && c.final.state !== 'pending' ? c.final : null;
    },
    () => `command ${id} past pending: ${seen}`,
  );
}

function finals(events: EventCollector, id: string): string[] {
  return events.events.flatMap((e) => (e.type === 'command.final' && e.id === id ? [e.final.state] : []));
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', AWAY_DEADLINE_SECONDS: String(DEADLINE_S) });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('final outcomes of accepted commands', () => {
  it('reboot: accepted while the device restarts, done when it is back from a new boot, live', async () => {
    // timeScale 0.05: the reboot lasts 3 s.
    const ap = await device(0.05);
    const bootBefore = (await deviceRow(server, ap.sn))?.bootId;
    const events = await EventCollector.start(server);
    const res = await action(ap.sn, 'reboot');
    expect(res.body.data).toMatchObject({ code: 0 });
    const id = res.body.data.commandId!;

    const accepted = await command(id);
    expect(accepted).toMatchObject({ state: 'success', code: 0, final: { state: 'pending', code: null } });

    await waitFor(async () => (await command(id)).final?.state === 'done', 'final outcome', 15_000);
    const done = await command(id);
    expect(done.final).toMatchObject({ state: 'done', code: 0, message: null });
    expect(Date.parse(done.final!.at!)).toBeGreaterThan(Date.parse(done.finishedAt!));
    // Back from a new boot, and no longer rebooting.
    const row = await deviceRow(server, ap.sn);
    expect(row?.bootId).not.toBe(bootBefore);
    await waitFor(() => finals(events, id).includes('done'), 'the final live event');
    await events.stop();
    expect(finals(events, id)).toEqual(['pending', 'done']);
    // The reply stays the command's one recorded outcome (invariant 4).
    expect(done).toMatchObject({ state: 'success', code: 0 });

    // The device's own command history carries the same final outcome.
    const view = await owner.client.get<MaintenanceView>(
      `/projects/${projectId}/devices/${ap.sn}/maintenance`,
    );
    expect(view.body.data.commands.find((c) => c.id === id)?.final?.state).toBe('done');
  });

  it('bulk reboot: each accepted command is followed to its own final outcome', async () => {
    const [a, b] = await Promise.all([device(0.05), device(0.05)]);
    const res = await owner.client.post<BulkActionView>(`/projects/${projectId}/devices/actions/reboot`, {
      sns: [a.sn, b.sn],
    });
    expect(res.body.data.succeeded).toBe(2);
    const ids = res.body.data.results.map((r) => r.commandId!);
    expect((await commands(ids)).map((c) => c.final?.state)).toEqual(['pending', 'pending']);
    await waitFor(
      async () => (await commands(ids)).every((c) => c.final?.state === 'done'),
      'both back',
      20_000,
    );
  });

  it('reset: accepted, then done once the device is back from its factory-fresh boot', async () => {
    // timeScale 0.02: the 3-minute reset takes 3.6 s, time enough to read it as accepted first.
    const ap = await device(0.02);
    const res = await action(ap.sn, 'reset');
    expect(res.body.data.code).toBe(0);
    const id = res.body.data.commandId!;
    expect((await command(id)).final?.state).toBe('pending');
    await waitFor(async () => (await command(id)).final?.state === 'done', 'reset done', 15_000);
    expect(ap.revision).toBe(0);
  });

  it('upgrade: accepted at "uploading 0%", done when the device runs the new version', async () => {
    // timeScale 0.01: 0.2 s of download, then 3 s away writing flash.
    const ap = await device(0.01);
    const res = await action(ap.sn, 'upgrade', { version: '4.4.0' });
    expect(res.body.data.code).toBe(0);
    const id = res.body.data.commandId!;
    expect((await command(id)).final?.state).toBe('pending');
    await waitFor(async () => (await command(id)).final?.state === 'done', 'upgraded', 20_000);
    expect((await deviceRow(server, ap.sn))?.firmware).toBe('4.4.0');
  });

  it("upgrade: failed with the device's own code (5462) when the image did not arrive intact", async () => {
    const ap = await device(0.01);
    const form = new FormData();
    form.append('file', new Blob([buildFirmwareImage('BA-W1200C', '4.4.0', 4096)]), 'ap.bin');
    const uploaded = await owner.client.request<FirmwareView>(
      'POST',
      `/projects/${projectId}/firmware`,
      form,
    );
    expect(uploaded.body.code).toBe(0);
    // The checksum the command carries no longer matches the bytes the device downloads.
    await server.database.db
      .update(firmwareImages)
      .set({ sha256: '0'.repeat(64) })
      .where(eq(firmwareImages.id, uploaded.body.data.id));
    const res = await action(ap.sn, 'upgrade', { firmwareId: uploaded.body.data.id });
    expect(res.body.data.code).toBe(0);
    const id = res.body.data.commandId!;
    await waitFor(async () => (await command(id)).final?.state === 'failed', 'upgrade failed', 15_000);
    // The device names the check that failed (docs/decisions/0061): the checksum.
    expect((await command(id)).final).toMatchObject({
      state: 'failed',
      code: 5462,
      message: 'The firmware image checksum does not match',
    });
    expect((await command(id)).state).toBe('success');
  });

  it('timeout (5110) when the device never comes back and the away watchdog gives up', async () => {
    // timeScale 0.05: away for 15 s writing flash; it dies meanwhile.
    const ap = await device(0.05);
    // 4.3.1: the project has no uploaded image of it (the test above spoiled its 4.4.0 on purpose),
    // so the device fetches the catalogue's own.
    const res = await action(ap.sn, 'upgrade', { version: '4.3.1' });
    const id = res.body.data.commandId!;
    await waitFor(async () => {
      const row = await deviceRow(server, ap.sn);
      const c = await command(id);
      if (c.final && c.final.state !== 'pending')
        throw new Error(`upgrade ended early: ${JSON.stringify(c.final)}`);
      return row?.status === 3 && !ap.connected;
    }, 'away');
    await ap.kill();
    expect((await command(id)).final?.state).toBe('pending');
    // What the device sent before it left is written before the clock jumps: a message stamped after
    // the jump is a sign of life, and the watchdog looks again a deadline later (CI, embedded pass).
    await server.gateway.ingest.drain();
    server.clock.advance(DEADLINE_S * 1000 + 60_000);
    expect(await verdict(id)).toMatchObject({
      state: 'timeout',
      code: 5110,
      message: 'The device did not come back in time',
    });
  });

  it('timeout (5110) for a reboot whose device is lost on the way (last will) and not back by the deadline', async () => {
    const ap = await device(0.05);
    const res = await action(ap.sn, 'reboot');
    const id = res.body.data.commandId!;
    await waitFor(async () => (await deviceRow(server, ap.sn))?.status === 8, 'rebooting');
    await ap.kill();
    await waitFor(async () => (await deviceRow(server, ap.sn))?.status === 0, 'offline by its last will');
    expect((await command(id)).final?.state).toBe('pending');
    // What the device sent before it left is written before the clock jumps: a message stamped after
    // the jump is a sign of life, and the watchdog looks again a deadline later (CI, embedded pass).
    await server.gateway.ingest.drain();
    server.clock.advance(DEADLINE_S * 1000 + 60_000);
    expect(await verdict(id)).toMatchObject({ state: 'timeout', code: 5110 });
  });

  it('other commands have no final outcome; refusals neither', async () => {
    const ap = await device(0.01);
    const locate = await action(ap.sn, 'locate', { seconds: 10 });
    expect((await command(locate.body.data.commandId!)).final).toBeNull();
    const bad = await action(ap.sn, 'upgrade', { version: '9.9.9' });
    expect(bad.body.code).toBe(37);
  });

  it("answers only the project's commands, and refuses malformed ids with 16", async () => {
    const ap = await device(0.01);
    const locate = await action(ap.sn, 'locate', { seconds: 10 });
    const other = await insertProject(server, owner.id);
    const res = await owner.client.get<CommandView[]>(
      `/projects/${other}/commands?ids=${locate.body.data.commandId}`,
    );
    expect(res.body.data).toEqual([]);
    const bad = await owner.client.get(`/projects/${projectId}/commands?ids=not-an-id`);
    expect(bad.body.code).toBe(16);
  });
});
