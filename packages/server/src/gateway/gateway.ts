import { randomBytes } from 'node:crypto';
import { DeviceStatus, serverTunnelFilter, serverUpFilter, setTopicRoot } from '@beacon/protocol';
import { notInArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { alarmsFromStoredEvents } from '../alarms/raise.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deviceState } from '../db/schema.ts';
import { checkFirstHello } from '../devices/first-hello.ts';
import type { EventBus } from '../events/bus.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { compileForCloudManaged } from '../network/service.ts';
import { DEV_SECRET_KEY, Secrets } from '../security/secrets.ts';
import { EmbeddedBroker } from './broker.ts';
import { CommandService } from './commands.ts';
import { Ingest } from './ingest.ts';
import { type DeviceLinkClient, type DeviceMessageHandler, ServerLink } from './link.ts';
import { NatsLink } from './nats-link.ts';
import { upgradeFailuresFromEvents } from './outcomes.ts';
import { RemoteTunnel } from './tunnel.ts';

/** Which broker devices connect to (docs/decisions/0067): one setting decides, MQTT_URL or NATS_URL. */
export type BrokerKind = 'embedded' | 'mqtt' | 'nats';

export function brokerKindOf(config: Pick<Config, 'mqttUrl' | 'natsServers'>): BrokerKind {
  return config.natsServers.length ? 'nats' : config.mqttUrl ? 'mqtt' : 'embedded';
}

/**
 * The device gateway (DESIGN.md "Device protocol (MQTT)"): the broker (embedded Aedes unless
 * MQTT_URL or NATS_URL), the server's own link subscribed to every device's up topics (an MQTT
 * client, or a NATS JetStream consumer), the ingest that records what devices report, and the
 * command service.
 */
export class Gateway {
  private constructor(
    readonly link: DeviceLinkClient,
    readonly ingest: Ingest,
    readonly commands: CommandService,
    /** The embedded broker, or null with MQTT_URL. */
    readonly broker: EmbeddedBroker | null,
    /** Where devices connect: the embedded broker's URL, MQTT_URL, or NATS_MQTT_URL. */
    readonly brokerUrl: string,
    /** Remote management's requests to devices over their own links (docs/decisions/0060). */
    readonly tunnel: RemoteTunnel,
  ) {}

  static async start(deps: {
    config: Config;
    database: Database;
    bus: EventBus;
    log: FastifyBaseLogger;
    now(): Date;
    metrics?: Metrics;
  }): Promise<Gateway> {
    const { config, log } = deps;
    let broker: EmbeddedBroker | null = null;
    const kind = brokerKindOf(config);
    let url = kind === 'nats' ? config.natsMqttUrl : config.mqttUrl;
    let username = config.mqttUsername;
    let password = config.mqttPassword;
    setTopicRoot(config.mqttTopicRoot);
    let filter: string | string[] = serverUpFilter();
    if (kind === 'embedded') {
      username = username ?? 'beacon-server';
      password = password ?? randomBytes(24).toString('base64url');
      broker = await startBrokerOnFreePort(config, {
        host: config.mqttHost,
        serverUsername: username,
        serverPassword: password,
        factoryKey: config.factoryKey,
        log,
      });
      url = broker.url;
      // Nothing is connected to a broker that just started: whatever the rows say from the last run,
      // every device is offline until it says hello (a single instance owns an embedded broker).
      await deps.database.db
        .update(deviceState)
        .set({ status: DeviceStatus.OFFLINE, operation: null, progress: null })
        .where(notInArray(deviceState.status, [DeviceStatus.OFFLINE, DeviceStatus.OFFLINE_VARIANT]));
    } else if (kind === 'mqtt' && config.mqttShareGroup) {
      // Several server instances split the device traffic (not on Aedes, which ignores $share).
      // The tunnel's answers go to every instance: the one holding the browser's request takes them.
      filter = [`$share/${config.mqttShareGroup}/${serverUpFilter()}`, serverTunnelFilter()];
    }
    let link: DeviceLinkClient | null = null;
    if (!config.secretKey) {
      log.warn(
        'BEACON_SECRET_KEY is not set: device secrets are sealed with the public development key; set your own',
      );
    }
    const commands = new CommandService({
      database: deps.database,
      bus: deps.bus,
      config,
      secrets: new Secrets(config.secretKey ?? DEV_SECRET_KEY),
      log,
      now: deps.now,
      publish: (topic, payload) => {
        deps.metrics?.published('command');
        return link!.publish(topic, payload, 1);
      },
      metrics: deps.metrics,
    });
    const ingest = new Ingest(
      deps.database,
      {
        onReply: (sn, reply) => commands.onReply(sn, reply),
        afterHello: async (row) => {
          // A pre-provisioned device that turns out to break its project's rules leaves it.
          const kept = await checkFirstHello(deps.database, row, deps.now(), log);
          if (kept) await commands.afterHello(kept);
        },
        afterState: (row) => commands.afterState(row),
        // Back from local management: the project's network at once (decision 0046).
        onCloudManaged: (tx, projectId, sns, now) =>
          compileForCloudManaged(tx, commands.secrets, projectId, sns, now),
        push: (sn) => commands.converge(sn),
      },
      log,
      deps.now,
      config.awayDeadlineMs,
      deps.metrics,
    );
    // Device events raise alarms in the transaction that stores them (docs/alarms.md).
    ingest.onDeviceEvents.push(alarmsFromStoredEvents(deps.now));
    // A failed firmware check gives the upgrade its code (docs/decisions/0061).
    ingest.onDeviceEvents.push(upgradeFailuresFromEvents);
    const tunnel = new RemoteTunnel((topic, payload) => {
      deps.metrics?.published('tunnel');
      return link!.publish(topic, payload, 1);
    });
    const onMessage: DeviceMessageHandler = (topic, payload, done) => {
      if (!RemoteTunnel.isAnswer(topic)) return ingest.accept(topic, payload, done);
      tunnel.accept(topic, payload);
      done?.('handled');
    };
    link =
      kind === 'nats'
        ? new NatsLink({
            servers: config.natsServers,
            user: username,
            pass: password,
            stream: 'BEACON_UP',
            consumer: config.mqttShareGroup || 'beacon',
            replicas: config.natsReplicas,
            ackWaitMs: config.natsAckWaitMs,
            log,
            onMessage,
          })
        : new ServerLink({
            url: url!,
            username,
            password,
            filter,
            log,
            onMessage,
            // The embedded broker stops with this process: nothing to keep a session for.
            sessionName: kind === 'mqtt' ? config.mqttSessionName : undefined,
          });
    try {
      await link.start();
    } catch (err) {
      await link.close();
      await broker?.close();
      throw err;
    }
    commands.start();
    return new Gateway(link, ingest, commands, broker, url!, tunnel);
  }

  /**
   * First step of a shutdown: no more device messages (the server link leaves the broker), the
   * ones received are handled (not retried any more if the database is away), and commands still waiting for a reply end (commands.ts close).
   * The broker stays up until close(), so devices are not cut off while HTTP drains.
   */
  async stopIntake(): Promise<void> {
    this.commands.quiesce();
    this.tunnel.close();
    await this.link.stop();
    await this.ingest.close();
    await this.commands.close();
    // After the ingest: a broker that waits for the outcome (NATS) hears it before the link goes.
    await this.link.close();
  }

  async close(): Promise<void> {
    await this.stopIntake();
    await this.broker?.close();
  }
}

/**
 * The standard MQTT port is often taken (a system Mosquitto). When MQTT_PORT was not set, the
 * embedded broker moves to the next free port and says so, so that `npm start` still works; an
 * explicit MQTT_PORT that is taken stays an error.
 */
async function startBrokerOnFreePort(
  config: Config,
  options: Omit<Parameters<typeof EmbeddedBroker.start>[0], 'port'>,
): Promise<EmbeddedBroker> {
  const tries = config.mqttPortExplicit ? 1 : 10;
  for (let i = 0; ; i++) {
    const port = config.mqttPort === 0 ? 0 : config.mqttPort + i;
    try {
      const broker = await EmbeddedBroker.start({ ...options, port });
      if (i > 0)
        options.log.warn(`MQTT port ${config.mqttPort} is in use: the embedded broker listens on ${port}`);
      return broker;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || i + 1 >= tries) throw err;
    }
  }
}
