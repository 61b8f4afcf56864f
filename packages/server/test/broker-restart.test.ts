import { randomBytes } from 'node:crypto';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { deviceRow, insertProject, testSn, waitFor } from './devices.helpers.ts';
import { createAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { HAS_MOSQUITTO, startMosquitto, type TestMosquitto } from './helpers/mosquitto.ts';

/**
 * Issue 16, faults: the broker restarted. A Mosquitto of the test's own (the server as one more
 * client through MQTT_URL, devices on the lean link) is killed with SIGKILL — every connection drops
 * at once, no will is published — and started again on the same port. The server reconnects and
 * subscribes again by itself, every device reconnects and says hello, and the server records them
 * online again; a command sent while the broker is away ends in one outcome (never left "sent"), and
 * every device answers a command after the restart with exactly one successful outcome.
 * Skipped where no `mosquitto` binary is installed.
 */

const DEVICES = 12;

let server: TestServer;
let broker: TestMosquitto | null = null;
const running: SimulatedDevice[] = [];

describe.skipIf(!HAS_MOSQUITTO)('the broker restarted (Mosquitto killed and started again)', () => {
  beforeAll(async () => {
    broker = await startMosquitto('broker-restart');
    server = await startTestServer({
      MQTT_URL: broker.url,
      MQTT_SHARE_GROUP: `t${randomBytes(4).toString('hex')}`,
      COMMAND_TIMEOUT_MS: '4000',
    });
  });

  afterAll(async () => {
    await Promise.all(running.map((d) => d.kill().catch(() => {})));
    await server?.close();
    await broker?.close();
  });

  it('devices come back, a command and a configuration sent meanwhile end once, every device answers after', async () => {
    const owner = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const sns = Array.from({ length: DEVICES }, () => testSn('B'));
    for (const sn of sns) {
      expect(
        (await owner.client.post(`/projects/${projectId}/devices`, { sn, model: 'BA-W1200C' })).body.code,
      ).toBe(0);
      running.push(
        await startDevice({
          url: broker!.url,
          sn,
          model: 'BA-W1200C',
          factoryKey: server.config.factoryKey,
          timeScale: 0.01,
          telemetryMs: 1000,
          backoffMinMs: 100,
          backoffMaxMs: 500,
          keepalive: 5,
          clientEvents: false,
          link: 'lean',
        }),
      );
    }
    const allOnline = async () => {
      for (const sn of sns) if ((await deviceRow(server, sn))?.status !== 1) return false;
      return true;
    };
    await waitFor(allOnline, 'every device online', 20_000);
    const connections = running.map((d) => d.link.connections);

    await broker!.kill();
    await waitFor(() => running.every((d) => !d.connected), 'every device sees the broker gone', 20_000);
    // Sent while the broker is away: it cannot reach the device, and it must still end.
    const during = server.gateway.commands.send(sns[0], 'locate', { seconds: 1 }, SYSTEM_ACTOR);
    // A configuration saved while the broker is away (committed, its push cannot reach the device):
    // it must reach every device once the broker is back (re-sent, or retried by convergence).
    const configured = sns.slice(1, 5);
    const saves = configured.map((sn, i) =>
      server.gateway.commands.setDesiredConfig(
        sn,
        { radios: [{ band: '2.4G' as const, channel: 1 + i, power: 15 }] },
        SYSTEM_ACTOR,
      ),
    );
    const revisions = (await Promise.all(saves)).map((s) => s.revision);
    await broker!.start();

    const outcome = await during;
    expect(outcome.state).not.toBe('sent');
    await waitFor(
      () => running.every((d, i) => d.connected && d.link.connections > connections[i]),
      'every device reconnected',
      30_000,
    );
    // Their hello after the reconnect reaches the server once it has subscribed again.
    await waitFor(
      async () => {
        for (const [i, sn] of sns.entries()) {
          const r = await server.gateway.commands.send(sn, 'led', { on: i % 2 === 0 }, SYSTEM_ACTOR);
          if (r.code !== 0) return false;
        }
        return true;
      },
      'every device answering commands after the restart',
      30_000,
    );
    expect(await allOnline()).toBe(true);
    await waitFor(
      async () => {
        for (const [i, sn] of configured.entries()) {
          const row = await deviceRow(server, sn);
          if (row?.configStatus !== 'applied' || row.reportedRevision !== revisions[i]) return false;
        }
        return true;
      },
      'every device runs the configuration saved while the broker was away',
      45_000,
    );

    // Exactly one outcome per command: none left "sent".
    const rows = await server.database.db
      .select()
      .from(deviceCommands)
      .where(inArray(deviceCommands.sn, sns));
    expect(rows.filter((r) => r.state === 'sent')).toEqual([]);
    const first = await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.sn, sns[0]));
    expect(first.filter((r) => r.name === 'locate')).toHaveLength(1);
  });
});
