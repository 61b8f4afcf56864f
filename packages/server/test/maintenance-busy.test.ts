import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView, BulkActionView, DeviceConfigInput } from '@beacon/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * A device away for its upgrade (SPEC.md §4, §9: status 3, offline while it writes its flash) hears
 * no command: every action is refused by the server at once with 71 and recorded as such, rather
 * than published to nobody and left to time out (5025).
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

/** Long enough that a command published to the absent device would visibly wait for it. */
const COMMAND_TIMEOUT_MS = 6000;
/** "At once": well below the command timeout. */
const PROMPT_MS = 2500;

async function device(timeScale = 0.01, model = 'BA-W1200C'): Promise<SimulatedDevice> {
  const sn = testSn('B');
  const d = await simulateOnline(server, sn, { model, timeScale });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const action = (sn: string, name: string, body: unknown = {}) =>
  owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

/** Starts an upgrade and waits until the device has left for it (status 3, disconnected). */
async function awayForUpgrade(ap: SimulatedDevice): Promise<void> {
  const res = await action(ap.sn, 'upgrade', { version: '4.4.0' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  await waitFor(
    async () => (await deviceRow(server, ap.sn))?.status === 3 && !ap.connected,
    'away for the upgrade',
  );
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('a device away for its upgrade', () => {
  it('refuses locate, a bulk action, remote management and a system command at once with 71, each recorded once', async () => {
    // timeScale 0.05: the device is away for 15 s.
    const ap = await device(0.05);
    const other = await device();
    await awayForUpgrade(ap);

    const locate = await timed(() => action(ap.sn, 'locate', { seconds: 30 }));
    expect({ status: locate.value.status, code: locate.value.body.code }).toEqual({ status: 409, code: 71 });
    expect(locate.ms).toBeLessThan(PROMPT_MS);

    const bulk = await timed(() =>
      owner.client.post<BulkActionView>(`/projects/${projectId}/devices/actions/led`, {
        sns: [ap.sn, other.sn],
        params: { on: false },
      }),
    );
    expect(bulk.value.body.data.results.map((r) => [r.sn, r.code])).toEqual([
      [ap.sn, 71],
      [other.sn, 0],
    ]);
    expect(bulk.ms).toBeLessThan(PROMPT_MS);

    const remote = await timed(() => action(ap.sn, 'remote-management', { enabled: true, ttlSeconds: 60 }));
    expect(remote.value.body.code).toBe(71);
    expect(remote.ms).toBeLessThan(PROMPT_MS);

    // Callers that go straight to the gateway (the scheduled-reboot job, the configuration re-send).
    const direct = await timed(() =>
      server.gateway.commands.sendToMany([ap.sn], 'locate', { seconds: 5 }, SYSTEM_ACTOR),
    );
    expect(direct.value.map((o) => [o.code, o.state])).toEqual([[71, 'failed']]);
    const reboot = await timed(() =>
      server.gateway.commands.send(ap.sn, 'reboot', {}, { accountId: owner.id, account: 'scheduled reboot' }),
    );
    expect({ code: reboot.value.code, state: reboot.value.state }).toEqual({ code: 71, state: 'failed' });
    expect(Math.max(direct.ms, reboot.ms)).toBeLessThan(PROMPT_MS);

    // Exactly one recorded outcome per command, all of them the refusal.
    const rows = await server.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, ap.sn), inArray(deviceCommands.name, ['locate', 'led', 'reboot'])));
    expect(rows.map((r) => [r.name, r.state, r.code]).sort()).toEqual(
      [
        ['led', 'failed', 71],
        ['locate', 'failed', 71],
        ['locate', 'failed', 71],
        ['reboot', 'failed', 71],
      ].sort(),
    );
    const open = await server.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.state, 'sent')));
    expect(open).toEqual([]);
  });

  it('a configuration still pending is applied once the device is back from its upgrade', async () => {
    const ap = await device(0.02);
    const current = await server.gateway.commands.send(ap.sn, 'get-config', {}, SYSTEM_ACTOR);
    expect(current.code).toBe(0);
    const document = (current.data as { document: DeviceConfigInput }).document;
    // A revision the device has not applied yet (its apply-config timed out, say): pending.
    const row = (await deviceRow(server, ap.sn))!;
    await server.database.db
      .update(devices)
      .set({
        desiredConfig: { ...document, name: 'After upgrade' },
        desiredRevision: row.reportedRevision + 1,
        configStatus: 'pending',
      })
      .where(eq(devices.sn, ap.sn));

    await awayForUpgrade(ap);
    await waitFor(
      async () => (await deviceRow(server, ap.sn))?.configStatus === 'applied',
      'configuration applied after the upgrade',
      20_000,
    );
    expect(ap.firmware).toBe('4.4.0');
    expect(ap.revision).toBe(row.reportedRevision + 1);
  });
});
