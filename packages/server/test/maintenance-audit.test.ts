import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { BulkActionView } from '@beacon/protocol';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { auditLog, deviceCommands } from '../src/db/schema.ts';
import { insertProject, insertSeen, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Invariant 2 for device actions (issue 7, issue 8): each device's action leaves exactly one audit
 * row, committed with its command record — so a server killed between the claim and the device's
 * reply leaves every sent command audited — and serials that are not in the project are refused
 * before anything is written.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;

beforeAll(async () => {
  // Nothing answers the silent devices: their commands end as timeouts, soon.
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: '1000' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await server?.close();
});

/** Devices the database says are online, with nobody behind them: a command to them gets no reply. */
async function silentDevices(n: number, status = 1): Promise<string[]> {
  const sns = Array.from({ length: n }, () => testSn('Q'));
  for (const sn of sns) await insertSeen(server, sn, { model: 'BA-W1200C', type: 'ap', projectId, status });
  return sns;
}

const auditsOf = (sns: string[]) =>
  server.database.db.select().from(auditLog).where(inArray(auditLog.entityId, sns));
const commandsOf = (sns: string[]) =>
  server.database.db.select().from(deviceCommands).where(inArray(deviceCommands.sn, sns));

/** The process as `npm start` runs it, on the test server's database: a second instance we can kill -9. */
function spawnInstance(port: number): ChildProcess {
  const root = path.resolve(import.meta.dirname, '../../..');
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: server.config.databaseUrl!,
      // Its own broker: nothing answers the commands it sends.
      MQTT_URL: '',
      MQTT_PORT: '0',
      DEMO: '0',
      DEV_OUTBOX: '1',
      COMMAND_TIMEOUT_MS: '120000',
    },
    stdio: 'ignore',
  });
}

describe('audit rows of device actions', () => {
  it('a bulk action naming serials not in the project is refused whole (410), writing nothing', async () => {
    const [mine] = await silentDevices(1);
    const strangers = Array.from({ length: 9_999 }, (_, i) => `NOTMINE${String(i).padStart(12, '0')}`);
    const res = await owner.client.post(`/projects/${projectId}/devices/actions/locate`, {
      sns: [mine, ...strangers],
      params: { seconds: 10 },
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 410, code: 410 });
    expect(await auditsOf([mine, ...strangers.slice(0, 50)])).toEqual([]);
    expect(await commandsOf([mine])).toEqual([]);
    const all = await server.database.db.select().from(auditLog).where(eq(auditLog.projectId, projectId));
    expect(all).toEqual([]);
  });

  it('one audit row per device, each naming its command (sent, offline refusal and server refusal alike)', async () => {
    const online = await silentDevices(2);
    const [away] = await silentDevices(1, 0);
    const sns = [...online, away];
    const res = await owner.client.post<BulkActionView>(`/projects/${projectId}/devices/actions/locate`, {
      sns,
      params: { seconds: 10 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const audits = await auditsOf(sns);
    const commands = await commandsOf(sns);
    expect(commands).toHaveLength(3);
    expect(audits).toHaveLength(3);
    expect(new Set(audits.map((a) => (a.after as { commandId: string }).commandId))).toEqual(
      new Set(commands.map((c) => c.id)),
    );
    for (const a of audits) expect(a).toMatchObject({ action: 'locate', entity: 'device', projectId });
  });

  it('kill -9 between claim and reply: every command sent (bulk and single) already has its one audit row', async () => {
    const all: string[] = [];
    const port = await freePort();
    const child = spawnInstance(port);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      client.setCookie('token', owner.client.cookieToken!);
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.ok,
        'second instance up',
        60_000,
      );
      // Added once it is up (an instance with its own broker marks every device offline as it starts).
      const bulk = await silentDevices(3);
      const [away] = await silentDevices(1, 0);
      const [single] = await silentDevices(1);
      all.push(...bulk, away, single);
      // Neither answers: nobody replies to these commands, and the instance dies waiting.
      const pending = [
        client
          .post(`/projects/${projectId}/devices/actions/reboot`, { sns: [...bulk, away] })
          .catch(() => null),
        client
          .post(`/projects/${projectId}/devices/${single}/actions/locate`, { seconds: 5 })
          .catch(() => null),
      ];
      const targets = [...bulk, single];
      await waitFor(
        async () => (await commandsOf(targets)).filter((c) => c.state === 'sent').length === targets.length,
        'commands claimed',
        20_000,
      );
      child.kill('SIGKILL');
      await exited;
      await Promise.all(pending);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const [single] = all.slice(-1);
    const commands = await commandsOf(all);
    const audits = await auditsOf(all);
    expect(commands).toHaveLength(5);
    expect(audits).toHaveLength(5);
    const byCommand = new Map(audits.map((a) => [(a.after as { commandId: string }).commandId, a]));
    for (const c of commands) {
      expect(byCommand.get(c.id), `audit of ${c.sn}`).toMatchObject({
        entityId: c.sn,
        action: c.sn === single ? 'locate' : 'reboot',
        accountId: owner.id,
      });
    }
  }, 90_000);

  it("audit rows carry the service's clock (deps.now()), not the database's", async () => {
    server.clock.advance(3_600_000);
    try {
      const [sn] = await silentDevices(1, 0);
      expect(
        (await owner.client.patch(`/projects/${projectId}`, { location: 'Moved clock' })).body.code,
      ).toBe(0);
      const res = await owner.client.post(`/projects/${projectId}/devices/${sn}/actions/reboot-schedule`, {
        days: [1],
        time: '04:00',
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
      const rows = await server.database.db.select().from(auditLog).where(eq(auditLog.projectId, projectId));
      const late = rows.filter((r) => r.action === 'update' || r.action === 'reboot-schedule');
      expect(late).toHaveLength(2);
      for (const row of late) expect(row.at.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    } finally {
      server.clock.advance(-3_600_000);
    }
  });
});
