import { z } from 'zod';
import { LIMITS } from '../enums/limits.ts';
import { COMMAND_NAMES, COMMAND_PARAMS, COMMAND_RULES, type CommandName } from './commands.ts';
import {
  deviceEventSchema,
  helloSchema,
  lastWillSchema,
  liveStateSchema,
  replySchema,
  telemetrySchema,
} from './messages.ts';
import { tunnelRequestSchema, tunnelResponseSchema } from './remote.ts';
import { DOWN_PUBLISH_OPTIONS, DOWN_SUBSCRIBE_QOS, UP_PUBLISH_OPTIONS, type UpKind } from './topics.ts';

/**
 * Every message of the device protocol by the name docs/protocol/asyncapi.yaml gives it. The AsyncAPI
 * document is generated from these schemas (`npm run asyncapi -w @beacon/agent`), so the two cannot
 * drift; a test compares the committed file with `buildAsyncApi()`.
 */
export const UP_MESSAGES = {
  hello: {
    kind: 'hello',
    schema: helloSchema,
    title: 'Hello',
    summary: 'Who the device is; sent after every connection and restart.',
  },
  state: {
    kind: 'state',
    schema: liveStateSchema,
    title: 'State',
    summary: 'Status code (SPEC.md §4), configuration revision and config status. Retained.',
  },
  lastWill: {
    kind: 'state',
    schema: lastWillSchema,
    title: 'Last will',
    summary: 'Published by the broker (retained) when the device connection is lost: status 0.',
  },
  telemetry: {
    kind: 'telemetry',
    schema: telemetrySchema,
    title: 'Telemetry',
    summary: 'Live data: clients, ports, PoE, WAN, mesh, radios, CPU, memory, uptime.',
  },
  event: {
    kind: 'event',
    schema: deviceEventSchema,
    title: 'Event',
    summary: 'An alarm (warning, critical) or a log entry (info).',
  },
  reply: {
    kind: 'reply',
    schema: replySchema,
    title: 'Reply',
    summary: 'The one outcome of a command: code 0 or a catalogue code, with optional data.',
  },
} as const satisfies Record<string, { kind: UpKind; schema: z.ZodType; title: string; summary: string }>;
export type UpMessageName = keyof typeof UP_MESSAGES;

/** Command message names in the document: `cmd.<command name>`. */
export const commandMessageName = (name: CommandName): string => `cmd.${name}`;

/** Every message name the AsyncAPI document must define. */
export const DEVICE_MESSAGE_NAMES: readonly string[] = [
  ...Object.keys(UP_MESSAGES),
  ...COMMAND_NAMES.map(commandMessageName),
  'tunnelRequest',
  'tunnelResponse',
];

const COMMAND_SUMMARY: Record<CommandName, string> = {
  reboot: `Restart. Reply 0, then state 8 (rebooting) for about ${LIMITS.REBOOT_SECONDS} s, then hello and state 1.`,
  reset: `Factory reset: revision 0, password and modes to defaults. State 8 for about ${LIMITS.RESET_SECONDS} s, then hello and state 1; the server re-sends the desired configuration.`,
  upgrade: `Firmware upgrade (codes 37 unsupported version, 38 no new version). With url: download it, check size, sha256, the image header (model, version) and the Ed25519 signature of the statement \`beacon-firmware-v1\\n{model}\\n{version}\\n{size}\\n{sha256}\` before flashing; a failed check is an upgrade-failed event with data.code 5460-5464, then state 6. Reply 0, state 4 (uploading), 5 (upload success) or 6 (upload failed), then 3 (upgrading) and the device closes its connection (no will) for about ${LIMITS.UPGRADE_SECONDS} s; it comes back with hello (new firmware) and state 2, then 1.`,
  'set-password': 'Device password (SPEC.md §5 rule; code 6 when it does not hold).',
  locate: 'Blink the LED for a number of seconds.',
  led: 'Switch the LEDs on or off.',
  'rate-limit': 'Limit the device (or one client) to up/down kbit/s; 0 = unlimited.',
  'poe-reboot': `Power-cycle PoE ports: their links go down for about ${LIMITS.POE_REBOOT_SECONDS} s; the device stays online.`,
  'set-mode': `Switch a CPE between AP and client mode: clears the bridge group and restarts (state 8 for about ${LIMITS.MODE_SWITCH_SECONDS} s).`,
  'local-management':
    'Enter (enabled) or leave local management mode; in local mode configuration commands answer 76.',
  'remote-management-open':
    'Open the local web page for remote management; the reply data holds {token, expiresAt, path?}. The page is then served through the tunnel on dev/{sn}/down/http and dev/{sn}/up/http, over this same connection: the device accepts no inbound connection and the server connects to no address (a `url` in the reply is ignored).',
  'remote-management-close': 'Close the remote management page.',
  'apply-config': `Apply a whole configuration document under a revision. The device validates it with the SPEC.md §5 rules: failure → reply with the catalogue code and state configStatus failed; success → state 7 while saving (${LIMITS.CONFIG_SAVE_MIN_SECONDS}-${LIMITS.CONFIG_SAVE_MAX_SECONDS} s), then reply 0 and state 1 with the new revision, applied. The device keeps it across restarts.`,
  'get-config':
    'Read the running configuration: reply data {revision, hash, document}, hash being the configHash of the document the device runs (backup, copy configuration).',
  'kick-client': 'Force a client offline.',
  'route-table':
    'Read the routes the gateway runs (connected networks, static routes, the default route): reply data {revision, routes: [{destination, mask, gateway, interface, metric, source}]}.',
};

const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
};

const pascal = (name: string): string =>
  name
    .split(/[-.]/)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

const ref = (path: string) => ({ $ref: path });

/** Builds the AsyncAPI 3.0 document of the device protocol, from the device's point of view. */
export function buildAsyncApi(version = '1.0.0'): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const snParam = { sn: ref('#/components/parameters/sn') };

  const upChannel = (kind: UpKind, names: UpMessageName[], description: string) => {
    channels[kind] = {
      address: `dev/{sn}/up/${kind}`,
      title: `Device ${kind}`,
      description,
      parameters: snParam,
      messages: Object.fromEntries(names.map((n) => [n, ref(`#/components/messages/${n}`)])),
    };
    operations[`send${pascal(kind)}`] = {
      action: 'send',
      channel: ref(`#/channels/${kind}`),
      summary: `The device publishes on dev/{sn}/up/${kind}.`,
      messages: names.map((n) => ref(`#/channels/${kind}/messages/${n}`)),
      bindings: {
        mqtt: {
          qos: UP_PUBLISH_OPTIONS[kind].qos,
          retain: UP_PUBLISH_OPTIONS[kind].retain,
          bindingVersion: '0.2.0',
        },
      },
    };
  };

  for (const [name, m] of Object.entries(UP_MESSAGES)) {
    const schemaName = pascal(name);
    schemas[schemaName] = jsonSchema(m.schema);
    messages[name] = {
      name,
      title: m.title,
      summary: m.summary,
      contentType: 'application/json',
      payload: ref(`#/components/schemas/${schemaName}`),
    };
  }

  const commandSchemaNames: string[] = [];
  for (const name of COMMAND_NAMES) {
    const schemaName = `${pascal(name)}Command`;
    commandSchemaNames.push(schemaName);
    const rule = COMMAND_RULES[name];
    schemas[schemaName] = jsonSchema(
      z.object({
        id: z.string().min(1).max(64),
        name: z.literal(name),
        params: COMMAND_PARAMS[name],
        ts: z.int().min(0).optional(),
        expiresAt: z.int().min(0).optional(),
      }),
    );
    messages[commandMessageName(name)] = {
      name: commandMessageName(name),
      title: `Command ${name}`,
      summary: COMMAND_SUMMARY[name],
      description: [
        rule.capability ? `Needs the model capability \`${rule.capability}\` (else code 2).` : 'Every model.',
        rule.cloudOnly ? 'Refused with 76 in local management mode.' : 'Allowed in local management mode.',
        rule.seconds
          ? `Busy for about ${rule.seconds} s (SPEC.md §9, scaled by the simulator's time scale).`
          : '',
      ]
        .filter(Boolean)
        .join(' '),
      contentType: 'application/json',
      payload: ref(`#/components/schemas/${schemaName}`),
    };
  }

  upChannel(
    'hello',
    ['hello'],
    'Sent after every MQTT connection (also after a broker failure) and after every restart.',
  );
  upChannel(
    'state',
    ['state', 'lastWill'],
    'Retained. The device publishes its state on every change; the broker publishes the last will (status 0, `will: true`) when the connection is lost without a clean disconnect.',
  );
  upChannel('telemetry', ['telemetry'], 'Periodic live data (every 30 s by default).');
  upChannel('event', ['event'], 'Alarms and log entries as they happen.');
  upChannel(
    'reply',
    ['reply'],
    'Exactly one reply per command id; a repeated id (QoS 1 redelivery) gets the same reply again.',
  );

  channels.cmd = {
    address: 'dev/{sn}/down/cmd',
    title: 'Commands to the device',
    description:
      'One command at a time. While busy the device answers 71 (upgrading), 5046 (rebooting) or 2010 (another command in progress); an unknown name, malformed JSON or bad parameters answer 19 or 16 (or the code of the failed rule, e.g. 6 for a weak password); a command past its expiresAt answers 5025.',
    parameters: snParam,
    messages: Object.fromEntries(
      COMMAND_NAMES.map((n) => [
        commandMessageName(n),
        ref(`#/components/messages/${commandMessageName(n)}`),
      ]),
    ),
  };
  operations.receiveCommand = {
    action: 'receive',
    channel: ref('#/channels/cmd'),
    summary: `The device subscribes to dev/{sn}/down/cmd with QoS ${DOWN_SUBSCRIBE_QOS} (the server publishes with QoS ${DOWN_PUBLISH_OPTIONS.qos}; the broker delivers at the subscription's) and answers each command on dev/{sn}/up/reply.`,
    messages: COMMAND_NAMES.map((n) => ref(`#/channels/cmd/messages/${commandMessageName(n)}`)),
    reply: { channel: ref('#/channels/reply'), messages: [ref('#/channels/reply/messages/reply')] },
    bindings: {
      mqtt: { qos: DOWN_SUBSCRIBE_QOS, retain: DOWN_PUBLISH_OPTIONS.retain, bindingVersion: '0.2.0' },
    },
  };

  // The remote-management tunnel (docs/decisions/0060).
  schemas.TunnelRequest = jsonSchema(tunnelRequestSchema);
  schemas.TunnelResponse = jsonSchema(tunnelResponseSchema);
  messages.tunnelRequest = {
    name: 'tunnelRequest',
    title: 'Remote management request',
    summary:
      "One request of the administrator's browser for the device's page, while a remote-management session is open. The device checks `token` and the session's end (401 otherwise) and answers on dev/{sn}/up/http.",
    contentType: 'application/json',
    payload: ref('#/components/schemas/TunnelRequest'),
  };
  messages.tunnelResponse = {
    name: 'tunnelResponse',
    title: 'Remote management answer',
    summary:
      'One piece of the answer: `seq` 0 carries status, contentType and location (a path on the page); `body` is base64 of at most 196,608 bytes; `more: false` ends it. 16 MiB at most in all; the server waits 15 s.',
    contentType: 'application/json',
    payload: ref('#/components/schemas/TunnelResponse'),
  };
  channels.httpRequest = {
    address: 'dev/{sn}/down/http',
    title: 'Remote management requests',
    description:
      'Requests for the local page, carried over the connection the device opened (no inbound connection to the device).',
    parameters: snParam,
    messages: { tunnelRequest: ref('#/components/messages/tunnelRequest') },
  };
  channels.httpAnswer = {
    address: 'dev/{sn}/up/http',
    title: 'Remote management answers',
    description: 'Answers to dev/{sn}/down/http, in pieces. QoS 0: a lost piece makes the browser retry.',
    parameters: snParam,
    messages: { tunnelResponse: ref('#/components/messages/tunnelResponse') },
  };
  operations.receiveTunnelRequest = {
    action: 'receive',
    channel: ref('#/channels/httpRequest'),
    summary: `The device subscribes to dev/{sn}/down/http with QoS ${DOWN_SUBSCRIBE_QOS} (with dev/{sn}/down/cmd).`,
    messages: [ref('#/channels/httpRequest/messages/tunnelRequest')],
    reply: {
      channel: ref('#/channels/httpAnswer'),
      messages: [ref('#/channels/httpAnswer/messages/tunnelResponse')],
    },
    bindings: { mqtt: { qos: DOWN_SUBSCRIBE_QOS, retain: false, bindingVersion: '0.2.0' } },
  };
  operations.sendTunnelResponse = {
    action: 'send',
    channel: ref('#/channels/httpAnswer'),
    summary: 'The device publishes the pieces of each answer on dev/{sn}/up/http.',
    messages: [ref('#/channels/httpAnswer/messages/tunnelResponse')],
    bindings: { mqtt: { qos: 0, retain: false, bindingVersion: '0.2.0' } },
  };

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Beacon device protocol',
      version,
      description: [
        'How a device (real or the simulator in packages/agent) talks to Beacon over MQTT 3.1.1.',
        'The device connects with client id = username = its serial number and password = its per-device secret,',
        'and registers a last will on dev/{sn}/up/state. It may publish only under dev/{sn}/up/ and subscribe only',
        'to dev/{sn}/down/ (DESIGN.md invariant 5). Servers subscribe to dev/+/up/# (shared subscription',
        '$share/beacon/dev/+/up/# on brokers that support it).',
        '',
        'Configuration is sent whole with a revision (apply-config); the device reports the revision it runs in',
        'hello and state, and the server re-sends while they differ. Result codes are those of the error catalogue',
        '(SPEC.md §8). The schemas are generated from packages/protocol/src/device.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      embedded: {
        host: 'localhost:1883',
        protocol: 'mqtt',
        protocolVersion: '3.1.1',
        description: 'The broker embedded in the Beacon server (Aedes), or any broker given by MQTT_URL.',
        security: [ref('#/components/securitySchemes/deviceCredentials')],
        bindings: {
          mqtt: {
            clientId: '{sn}',
            cleanSession: true,
            keepAlive: 30,
            lastWill: {
              topic: 'dev/{sn}/up/state',
              qos: 1,
              retain: true,
              message: '{"status":0,"will":true,"ts":<connect time>}',
            },
            bindingVersion: '0.2.0',
          },
        },
      },
    },
    channels,
    operations,
    components: {
      parameters: { sn: { description: 'Device serial number: 16 to 32 letters or digits.' } },
      securitySchemes: {
        deviceCredentials: {
          type: 'userPassword',
          description:
            'username = serial number, password = per-device secret (HMAC-SHA256 of the SN under the factory key, 32 hex characters).',
        },
      },
      schemas,
      messages,
    },
  };
}
