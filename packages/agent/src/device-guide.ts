import {
  COMMAND_NAMES,
  COMMAND_RULES,
  Codes,
  DEV_FACTORY_KEY,
  DEV_FIRMWARE_PUBLIC_KEY,
  DEV_FIRMWARE_SEED,
  DEVICE_LIMITS,
  deriveDeviceSecret,
  errorMessage,
  FIRMWARE_CHECK_CODES,
  firmwareStatement,
  LIMITS,
  MODEL_CATALOGUE,
  signFirmware,
  TUNNEL_CHUNK_BYTES,
  TUNNEL_PAGE_MAX_BYTES,
  TUNNEL_TIMEOUT_SECONDS,
  validateDevicePassword,
  validateDhcpRange,
  validateDns,
  validateHostPart,
  validateLease,
  validatePoolName,
  validatePortRange,
  validateSsid,
  validateVlanId,
  validateVlanName,
  validateWanGateway,
  validateWifiPassword,
} from '@beacon/protocol';

/**
 * docs/protocol/device-guide.md: what a device maker needs beyond the AsyncAPI file, GENERATED from
 * packages/protocol (`npm run device-guide -w @beacon/agent`) so that the numbers, codes, models and
 * test vectors cannot drift from the code; a unit test compares the committed file.
 */

const SAMPLE_SNS = ['BEACONAP00000001', 'SIMAP0000000000000001', 'ABCDEF0123456789XYZ'];

interface RuleExample {
  rule: string;
  bad: string;
  check: () => { code: number; message: string } | null;
}

/** Each SPEC.md §5 rule a device applies, with an input it must refuse; the code is the validator's. */
const RULES: RuleExample[] = [
  {
    rule: 'Device password: 8+ characters, three of upper, lower, digit, special',
    bad: '`abcdefgh`',
    check: () => validateDevicePassword('abcdefgh'),
  },
  {
    rule: 'Wi-Fi password: 8-63 printable ASCII or 8-64 hex',
    bad: '`short`',
    check: () => validateWifiPassword('short'),
  },
  { rule: 'SSID: 1-32 bytes', bad: '33 × `a`', check: () => validateSsid('a'.repeat(33)) },
  { rule: 'VLAN id within the model range (default 10-4094)', bad: '`5`', check: () => validateVlanId(5) },
  { rule: 'VLAN id is an integer', bad: '`10.5`', check: () => validateVlanId('10.5') },
  { rule: 'VLAN name: not br0 or IPTV', bad: '`br0`', check: () => validateVlanName('br0') },
  {
    rule: 'Host part not all 0s or all 1s',
    bad: '`192.168.1.255/24`',
    check: () => validateHostPart('192.168.1.255', 24),
  },
  {
    rule: 'WAN gateway on the WAN segment',
    bad: '`10.0.0.2/24` via `10.0.1.1`',
    check: () => validateWanGateway('10.0.0.2', '10.0.1.1', 24),
  },
  {
    rule: 'DHCP end after start, same segment',
    bad: '`192.168.1.100`-`192.168.1.50`',
    check: () => validateDhcpRange('192.168.1.100', '192.168.1.50', 24),
  },
  {
    rule: 'DHCP pool name: 1-32 letters, digits, underscore',
    bad: '`pool-1`',
    check: () => validatePoolName('pool-1'),
  },
  { rule: 'DHCP lease (custom) 30-10080 minutes', bad: '`10`', check: () => validateLease(10) },
  {
    rule: 'At most two DNS servers, primary and secondary differ',
    bad: '`8.8.8.8, 8.8.8.8`',
    check: () => validateDns(['8.8.8.8', '8.8.8.8']),
  },
  { rule: 'Ports 1-65535, end not below start', bad: '`80`-`20`', check: () => validatePortRange(80, 20) },
];

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export async function renderDeviceGuide(): Promise<string> {
  const out: string[] = [];
  const p = (...lines: string[]) => out.push(...lines);
  p(
    '# Building a Beacon device',
    '',
    '<!-- GENERATED from packages/protocol by `npm run device-guide -w @beacon/agent`; do not edit by hand.',
    '     A unit test (packages/agent/src/device-guide.test.ts) fails when this file and the code disagree. -->',
    '',
    'What a device maker needs besides [asyncapi.yaml](asyncapi.yaml) (every topic and message schema) and',
    '[README.md](README.md) (the flows). The simulator in `packages/agent` is the reference device; the',
    'conformance kit (`npm run conformance`, [below](#conformance-kit)) checks yours.',
    '',
    '## Credentials: the factory key and the device secret',
    '',
    'A device logs in to the broker with client id = username = its serial number (16 to 32 letters or',
    'digits) and password = its secret:',
    '',
    '```',
    'secret = lowercase_hex( HMAC-SHA256( key = UTF-8(factoryKey), message = UTF-8(sn) )[0..16) )',
    '```',
    '',
    'that is the first 16 bytes of the MAC as 32 lower-case hex characters. The SN is used exactly as the',
    'device sends it as its username.',
    '',
    `**Development factory key:** \`${DEV_FACTORY_KEY}\`. Simulators and development servers use it. It is`,
    'public: **production servers must set their own `BEACON_FACTORY_KEY`** (the server refuses to start',
    'with this one when `NODE_ENV=production`), and devices are provisioned with secrets derived from it.',
    '',
    'Test vectors (development factory key):',
    '',
    row(['serial number', 'secret']),
    row(['---', '---']),
  );
  for (const sn of SAMPLE_SNS) p(row([`\`${sn}\``, `\`${await deriveDeviceSecret(DEV_FACTORY_KEY, sn)}\``]));
  p(
    '',
    '## The model catalogue',
    '',
    'A device says its model in `hello`. The console knows these models; for each it checks ports, radios,',
    'the VLAN range and firmware versions. A model not in the catalogue is still listed and reported, with',
    'the capabilities its own `hello` names; actions that need a capability it lacks answer 2, and upgrades',
    'answer 37 (no version of it is known).',
    '',
    row([
      'model',
      'type',
      'capabilities',
      'ports (id:type/Mbit/s, P = PoE, W = WAN)',
      'bands',
      'PoE budget W',
      'VLAN range',
      'firmware',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---']),
  );
  for (const m of MODEL_CATALOGUE) {
    const ports = m.ports.map((x) => `${x.id}:${x.type}/${x.maxSpeed}${x.poe ? 'P' : ''}${x.wan ? 'W' : ''}`);
    p(
      row([
        `\`${m.model}\``,
        m.type,
        m.capabilities.join(', '),
        ports.length ? ports.join(' ') : '—',
        m.bands.length ? m.bands.join(', ') : '—',
        m.poeBudget,
        `${m.minVlan}-${m.maxVlan}`,
        m.firmware.join(', '),
      ]),
    );
  }
  p(
    '',
    'Firmware versions are semantic versions (`MAJOR.MINOR.PATCH`, optional `-pre.release`, `+build` ignored);',
    'a shorter numeric core counts missing parts as 0. An upgrade to a version the model does not list answers',
    '37; to a version not newer than the running one (by semantic-version precedence) 38.',
    '',
    '## Device-side rules: refuse what the console refuses',
    '',
    'The device validates `apply-config` and command parameters with the same SPEC.md §5 rules as the console',
    '(`validateDeviceConfig` and `packages/protocol/src/validators`) and answers the same code, with `data.path`',
    'locating the field. The codes below are computed by those validators:',
    '',
    row(['rule', 'refused example', 'code', 'message']),
    row(['---', '---', '---', '---']),
  );
  for (const r of RULES) {
    const failure = r.check();
    if (!failure) throw new Error(`The example of "${r.rule}" is accepted: fix the guide`);
    p(row([r.rule, r.bad, failure.code, failure.message.replace(/\|/g, '\\|')]));
  }
  p(
    '',
    '## What each command does to the connection',
    '',
    'Every command gets exactly one reply on `dev/{sn}/up/reply`. "Restarts" means the device answers 0 first,',
    'then leaves: reboot, reset and CPE mode switch report state 8 and come back with a new `hello`; upgrade',
    '**closes its connection cleanly (MQTT DISCONNECT, so no last will)** while it writes its flash and comes back',
    "with `hello` on the new firmware. Durations are SPEC.md §9's.",
    '',
    row(['command', 'capability (else 2)', 'local mode', 'restarts', 'busy for']),
    row(['---', '---', '---', '---', '---']),
  );
  for (const name of COMMAND_NAMES) {
    const r = COMMAND_RULES[name];
    p(
      row([
        `\`${name}\``,
        r.capability ?? 'every model',
        r.cloudOnly ? 'refused (76)' : 'allowed',
        r.restarts ? 'yes' : 'no',
        r.seconds ? `about ${r.seconds} s` : '—',
      ]),
    );
  }
  p(
    '',
    `While applying a configuration the device reports state 7 (online, not saved) for ${LIMITS.CONFIG_SAVE_MIN_SECONDS}-${LIMITS.CONFIG_SAVE_MAX_SECONDS} s with`,
    '`configStatus: "applying"`, then replies 0 and reports state 1 with the new `revision` and `configStatus: "applied"`.',
    'A refused configuration: reply with the rule\'s code, state with `configStatus: "failed"`, `failedRevision`,',
    '`configCode`; the device keeps running its previous revision.',
    '',
    '### Malformed commands: 19 versus 16',
    '',
    row(['what arrives', 'reply']),
    row(['---', '---']),
    row(['not JSON (the device can still find an `"id"`)', `${Codes.JSON} (${errorMessage(Codes.JSON)})`]),
    row(['JSON without a usable `id`', 'no reply (there is nothing to answer)']),
    row(['an unknown command `name`', `${Codes.FORM_DATA} (${errorMessage(Codes.FORM_DATA)})`]),
    row([
      'bad parameters',
      `${Codes.FORM_DATA}, or the code of the SPEC.md §5 rule that failed (e.g. 6 for a weak password)`,
    ]),
    row([
      'parameters the device does not know',
      'ignored (a newer server may send more); the HTTP API, by contrast, refuses unknown fields with 16',
    ]),
    row([
      'arrived after its `expiresAt`',
      `${Codes.COMMAND_TIMEOUT} (${errorMessage(Codes.COMMAND_TIMEOUT)})`,
    ]),
    '',
    '### Re-sending',
    '',
    '- Subscribe to `down/cmd` and `down/http` with QoS 0 (the server publishes with QoS 1; with a clean',
    '  session QoS 1 would add no redelivery, and on some brokers it costs a stored consumer per connection).',
    '- A repeated `id` is a redelivery: answer the reply already given, do not act twice.',
    "- The server does not re-send a command: it waits for the reply until the command's `expiresAt`",
    '  (30 s by default) and records a timeout otherwise.',
    '- Configuration converges: the server sends the newest desired revision after a `hello` and re-sends it',
    '  while the device reports another revision and the push did not reach a decision (no reply, offline,',
    '  busy: retried with backoff from 30 s doubling to an hour). The same revision with the same document is',
    '  answered 0 without change. A revision the device refused (`failedRevision`, `configCode`, also after a',
    '  reconnection) stays failed with that code and is not re-sent: the administrator saves a new revision.',
    '- Replies and events produced while away are sent after reconnecting; telemetry is not.',
    '',
    '### Clocks',
    '',
    "- `ts` (every up message) is the device's time in ms since the epoch (UTC). The server keeps its own",
    '  receive time for storage; a device without a set clock still works (keep `ts` increasing).',
    '- A `state` or `telemetry` older (by `ts`) than the newest of its kind seen in the same connection is',
    "  ignored: several server instances may handle one device's messages out of order. A `hello` starts",
    '  afresh (a rebooted device may have an earlier clock), and a `ts` older by more than',
    `  ${DEVICE_LIMITS.STALE_WINDOW_MS / 1000} s is taken as the clock set back and accepted. Keep \`ts\` increasing within a connection.`,
    '- A `hello` with the same `bootId` as the last one taken, no higher an `uptime` and an earlier `connectedAt`',
    "  is an earlier connection's, delivered again by the broker after a later one: it is ignored. Keep `bootId`",
    '  for the whole boot (a new one at every boot) and `uptime` counting from the boot, never from the connection.',
    "- `expiresAt` of a command is the server's time in ms. A device compares it with its own clock: keep the",
    '  clock set (NTP); a device whose clock runs far ahead refuses commands as expired (5025).',
    '',
    '## Firmware a device can trust',
    '',
    'An upgrade from an image uploaded to the console carries `url` (on the console, signed for this device and',
    `15 minutes: a plain HTTP GET), \`size\` (at most ${LIMITS.FIRMWARE_MAX_BYTES} bytes), \`sha256\` (lower-case hex) and \`signature\`. Before`,
    'flashing, the device checks, in this order, and on the first failure stays on its firmware, publishes an',
    '`upgrade-failed` event with `data.code`, then state 6 (upload failed):',
    '',
    row(['check', 'code', 'message']),
    row(['---', '---', '---']),
    row([
      'the download works (HTTP 200, no redirect)',
      FIRMWARE_CHECK_CODES.DOWNLOAD,
      errorMessage(FIRMWARE_CHECK_CODES.DOWNLOAD),
    ]),
    row(['the image is `size` bytes', FIRMWARE_CHECK_CODES.SIZE, errorMessage(FIRMWARE_CHECK_CODES.SIZE)]),
    row([
      'its SHA-256 is `sha256`',
      FIRMWARE_CHECK_CODES.CHECKSUM,
      errorMessage(FIRMWARE_CHECK_CODES.CHECKSUM),
    ]),
    row([
      'its 64-byte header names this model and `version`',
      FIRMWARE_CHECK_CODES.HEADER,
      errorMessage(FIRMWARE_CHECK_CODES.HEADER),
    ]),
    row([
      '`signature` verifies (Ed25519) with the public key built into the device',
      FIRMWARE_CHECK_CODES.SIGNATURE,
      errorMessage(FIRMWARE_CHECK_CODES.SIGNATURE),
    ]),
    '',
    'The signature is Ed25519 over the UTF-8 bytes of the statement (no trailing newline):',
    '',
    '```',
    firmwareStatement({ model: '{model}', version: '{version}', size: 0, sha256: '{sha256}' }).replace(
      '\n0\n',
      '\n{size}\n',
    ),
    '```',
    '',
    'where `size` is decimal and `sha256` lower-case hex; `signature` is its 64 bytes in base64.',
    `**Development signing key** (Ed25519 seed, hex): \`${DEV_FIRMWARE_SEED}\`; its public key (raw 32 bytes,`,
    `base64): \`${DEV_FIRMWARE_PUBLIC_KEY}\`. Both are public: **production servers set \`BEACON_FIRMWARE_KEY\`** (their`,
    'own seed; refused otherwise when `NODE_ENV=production`) and devices are built with its public key.',
    '',
  );
  const vector = { model: 'BA-W1200C', version: '4.4.0', size: 8256, sha256: 'ab'.repeat(32) };
  p(
    'Test vector (development key):',
    '',
    '```',
    `statement = ${JSON.stringify(firmwareStatement(vector))}`,
    `signature = ${await signFirmware(DEV_FIRMWARE_SEED, vector)}`,
    '```',
    '',
    'An upgrade with only `version` names a catalogue version the device fetches from its maker; the',
    'simulator pretends.',
    '',
    "## Remote management through the device's own connection",
    '',
    'The server never connects to a device (it is usually behind NAT) nor to any address a device or a user',
    'names. `remote-management-open` is answered with `{token, expiresAt, path?}`; the device then answers',
    'requests that come on `dev/{sn}/down/http` (subscribe to it next to `dev/{sn}/down/cmd`):',
    '',
    `- check \`token\` and that the session has not ended (else status 401, which the console shows as 321);`,
    `- answer on \`dev/{sn}/up/http\` in pieces: \`seq\` 0 carries \`status\`, \`contentType\` and \`location\`;`,
    `  \`body\` is base64 of at most ${TUNNEL_CHUNK_BYTES} bytes; \`more: false\` marks the last piece;`,
    `- at most ${TUNNEL_PAGE_MAX_BYTES} bytes in all (the console answers 320 beyond), within ${TUNNEL_TIMEOUT_SECONDS} s (else 321);`,
    '- a redirect `location` must be a path on the page (anything else is not passed on: 320);',
    '- the page is shown sandboxed (no cookies, opaque origin): keep it self-contained.',
    '',
    `Limits of what a device sends: packets at most ${DEVICE_LIMITS.MQTT_PACKET_BYTES} bytes; hello, state and event at most`,
    `${DEVICE_LIMITS.MESSAGES_PER_SECOND} a second (bursts of ${DEVICE_LIMITS.MESSAGE_BURST}).`,
    '',
    '## Conformance kit',
    '',
    'Drives a device through every step and prints pass or fail per step (exit code 1 when one fails):',
    '',
    '```',
    'npm run conformance -- --url mqtt://broker:1883 --sn <SN> --key <factory key> [--firmware-seed <hex>]',
    '```',
    '',
    'It logs in as the server would (any user allowed to publish `dev/+/down/#` and read `dev/+/up/#`; on the',
    'embedded broker of a development server set `MQTT_USERNAME`/`MQTT_PASSWORD` and pass `--username`/`--password`),',
    "checks the device's `hello`, `state` and `telemetry` against the schemas, sends every command its model",
    'supports, a configuration with a refusal (a VLAN out of range), an upgrade with a bad checksum (5462 expected)',
    'and a good one (served by the kit itself, signed with the given seed), and a remote-management session',
    'through the tunnel. `--skip-restarts` leaves out reboot, reset and upgrade.',
    '',
  );
  return `${out.join('\n')}`;
}
