import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * A device leaves cleanly for its upgrade (no last will). If it never comes back, the away
 * watchdog marks it offline after AWAY_DEADLINE_SECONDS of silence; one that comes back is left alone.
 */

const DEADLINE_S = 600;
const MINUTE = 60_000;

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

async function device(timeScale: number): Promise<SimulatedDevice> {
  const sn = testSn('W');
  const d = await simulateOnline(server, sn, { model: 'BA-W1200C', timeScale });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const action = (sn: string, name: string, body: unknown = {}) =>
  owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

async function upgradeAndLeave(d: SimulatedDevice): Promise<void> {
  const res = await action(d.sn, 'upgrade', { version: '4.4.0' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  await waitFor(
    async () => (await deviceRow(server, d.sn))?.status === 3 && !d.connected,
    'away for the upgrade',
  );
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

describe('the away watchdog', () => {
  it('marks a device that never comes back from its upgrade offline after the deadline, not before', async () => {
    // timeScale 0.05: away for 15 s of real time; the device dies while it writes its flash.
    const d = await device(0.05);
    await upgradeAndLeave(d);
    await d.kill();

    server.clock.advance(DEADLINE_S * 1000 - MINUTE);
    await server.jobs.tick();
    expect((await deviceRow(server, d.sn))?.status).toBe(3);

    server.clock.advance(2 * MINUTE);
    await server.jobs.tick();
    expect(await deviceRow(server, d.sn)).toMatchObject({ status: 0, operation: null });

    // Offline now, so a command fails at once with 36 instead of being refused as upgrading (71).
    const locate = await action(d.sn, 'locate', { seconds: 10 });
    expect(locate.body.code).toBe(36);
  });

  it('leaves a device that came back from its upgrade alone', async () => {
    // timeScale 0.01: away for about 3 s, then back with the new firmware.
    const d = await device(0.01);
    await upgradeAndLeave(d);
    await waitFor(async () => {
      const status = (await deviceRow(server, d.sn))?.status;
      return status === 1 || status === 2;
    }, 'back from the upgrade');

    server.clock.advance(DEADLINE_S * 1000 + MINUTE);
    await server.jobs.tick();
    const row = await deviceRow(server, d.sn);
    expect([1, 2]).toContain(row?.status);
  });
});
