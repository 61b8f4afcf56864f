import { z } from 'zod';
import { DeviceType } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { NetMode } from '../enums/project.ts';
import {
  Cipher,
  EncryptionMode,
  FrequencyBand,
  requiresPassphrase,
  requiresRadius,
  WifiSyncState,
} from '../enums/wireless.ts';
import { Codes } from '../errors.ts';
import { validateWifiPassword } from '../validators/device.ts';
import { validateIpv4 } from '../validators/ip.ts';
import { byteLength, isPrintableAscii, lengthMessage, maxCountMessage } from '../validators/messages.ts';
import { validateSsid, validateWirelessPolicyName } from '../validators/names.ts';
import { validateIntegerInRange } from '../validators/numbers.ts';
import { type Check, invalid } from '../validators/result.ts';
import { validateVlanId } from '../validators/vlan.ts';
import {
  validateBands,
  validateCipher,
  validateKeyUpdateInterval,
  validateMaxClients,
  validateTimerShutdown,
} from '../validators/wireless.ts';
import { ConfigReason } from './config.ts';
import { DeviceConfigState } from './devices.ts';
import { ID_MAX, Id, IdParam } from './ids.ts';

/**
 * The project's Wi-Fi policies (SPEC.md §3 Wi-Fi policy, issue 11, docs/decisions/0047): one
 * document of policies saved as revisions of the project (server src/wifi/) and compiled into the
 * `wifi` section of every targeted AP's, wireless router's and mesh node's configuration document.
 *
 * The schema only bounds shapes (numbers stay numbers so that a value such as 10.5 reaches the
 * validator and its message); every rule of SPEC.md §5 and §9 is `validateWifiDocument`, which
 * answers the first failure with its catalogue code and where it is. The server refuses with it;
 * the form runs the same function on the document it would save, as the user types.
 */

const bandSchema = z.enum([FrequencyBand.B2G4, FrequencyBand.B5G, FrequencyBand.B5G1, FrequencyBand.B5G2]);
export const WIFI_BANDS: readonly FrequencyBand[] = bandSchema.options;

/** How a policy picks its devices: every Wi-Fi device of the project, or the chosen ones. */
export const WifiScope = { ALL: 'all', DEVICES: 'devices' } as const;
export type WifiScope = (typeof WifiScope)[keyof typeof WifiScope];

const SSIDS_PER_BAND = LIMITS.SSIDS_PER_BAND;
const GUEST_RATE_MAX_KBPS = LIMITS.GUEST_RATE_MAX_KBPS;
/** Chosen devices per policy (a shape bound; the project's devices bound it in practice). */
export const WIFI_POLICY_DEVICES_MAX = 1000;

export const WifiPeriod = z.object({ start: z.string().max(8), end: z.string().max(8) });

export const WifiRadius = z.object({
  ip: z.string().trim().max(15),
  port: z.number(),
  /** The RADIUS shared secret (sealed at rest, shown as ********). */
  password: z.string().max(128),
});

export const WifiPolicy = z.object({
  /** Stable within the project; given by the server when a policy is created. */
  id: Id.optional(),
  name: z.string().max(64),
  ssid: z.string().max(64),
  /** SPEC.md §9 encryption mode, 0 none … 8 WPA2 (enterprise). */
  encryption: z.number(),
  cipher: z.enum([Cipher.AES, Cipher.TKIP, Cipher.TKIP_AES]).nullable().default(null),
  /** The pre-shared key of the PSK and SAE modes (sealed at rest, shown as ********). */
  password: z.string().max(128).default(''),
  /** Group key update interval in seconds, 0 = none. */
  keyUpdateInterval: z.number().default(0),
  /** The VLAN the SSID's clients are put in; absent: the untagged LAN. */
  vlan: z.number().optional(),
  /** Clients per band on each device. */
  maxClients: z.number().default(LIMITS.MAX_CLIENTS_MAX),
  hidden: z.boolean().default(false),
  guest: z.boolean().default(false),
  /** Per-client rate limit of the guest network in kbit/s, 0 = unlimited. */
  guestRateKbps: z.number().default(0),
  /** Guest clients cannot reach one another. */
  clientIsolation: z.boolean().default(false),
  /** The RADIUS server of the enterprise modes (WPA 7, WPA2 8). */
  radius: WifiRadius.nullable().default(null),
  bands: z.array(bandSchema).max(4).default([]),
  scope: z.enum([WifiScope.ALL, WifiScope.DEVICES]).default(WifiScope.ALL),
  /** The chosen devices (scope `devices`), by serial number. */
  devices: z.array(z.string().trim().max(32)).max(WIFI_POLICY_DEVICES_MAX).default([]),
  /** Timer shutdown: the periods of the day (project time zone) the SSID is off. */
  schedule: z.array(WifiPeriod).max(16).default([]),
  /** The SSID takes part in signal extension (WDS / mesh backhaul); WPA-PSK turns it off (SPEC.md §4). */
  signalExtension: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type WifiPolicy = z.output<typeof WifiPolicy>;
export type WifiPolicyInput = z.input<typeof WifiPolicy>;

export const WifiDocument = z.object({ policies: z.array(WifiPolicy).max(64).default([]) });
export type WifiDocument = z.output<typeof WifiDocument>;
export type WifiDocumentInput = z.input<typeof WifiDocument>;
export const EMPTY_WIFI: WifiDocument = WifiDocument.parse({});

/** The device types a Wi-Fi policy reaches (a CPE's radio is its bridge link, not a network). */
export const WIFI_DEVICE_TYPES: readonly string[] = [
  DeviceType.AP,
  DeviceType.MESH,
  DeviceType.V7,
  DeviceType.WROUTER,
];

/**
 * The bands a device runs a policy on: the policy's bands the device has; 5G stands for both
 * halves of a tri-band device that has no plain 5G radio (5G-1 and 5G-2).
 */
export function deviceBandsFor(
  policyBands: readonly FrequencyBand[],
  deviceBands: readonly FrequencyBand[],
): FrequencyBand[] {
  const out = new Set<FrequencyBand>();
  for (const b of policyBands) {
    if (deviceBands.includes(b)) out.add(b);
    else if (b === FrequencyBand.B5G) {
      for (const half of [FrequencyBand.B5G1, FrequencyBand.B5G2])
        if (deviceBands.includes(half)) out.add(half);
    }
  }
  return deviceBands.filter((b) => out.has(b));
}

/**
 * What a change of encryption implies (SPEC.md §4 and §9), applied before the rules and before a
 * policy is stored: no password or cipher without encryption, no RADIUS outside the enterprise
 * modes, no pre-shared key in them, WPA-PSK turns signal extension off, guest settings only on the
 * guest network, chosen devices only when the policy is for chosen devices.
 */
export function normaliseWifiPolicy(p: WifiPolicy): WifiPolicy {
  const out: WifiPolicy = { ...p };
  if (out.encryption === EncryptionMode.NONE) {
    out.cipher = null;
    out.password = '';
  }
  if (!requiresRadius(out.encryption)) out.radius = null;
  else out.password = '';
  if (out.encryption === EncryptionMode.WPA_PSK) out.signalExtension = false;
  if (!out.guest) {
    out.guestRateKbps = 0;
    out.clientIsolation = false;
  }
  out.devices = out.scope === WifiScope.ALL ? [] : [...new Set(out.devices.map((sn) => sn.toUpperCase()))];
  return out;
}

/** One device a policy may reach, for the rules that depend on the project's devices. */
export interface WifiDeviceInfo {
  sn: string;
  bands: readonly FrequencyBand[];
  /** Clients per band the model takes (SPEC.md §9: 128). */
  maxClientsPerBand: number;
}

export interface WifiRules {
  /** A cable-free (mesh) project: duplicate SSIDs are 89, and every network is the whole mesh's. */
  mesh?: boolean;
  /** The project's Wi-Fi devices; absent: the rules that depend on them are left out. */
  devices?: readonly WifiDeviceInfo[];
  /** How many policies the project had before this change (the mesh's last network: 26). */
  previousCount?: number;
  /**
   * The index of the policy being added or edited: checked first, against all the others, so that
   * a clash (a taken name or SSID) is reported on it rather than on the policy it clashes with.
   */
  focus?: number;
}

/** A failure located in the document, e.g. `policies.2.ssid`. */
export type WifiCheck = (Check & { path: string }) | null;

const at = (path: string, check: Check): WifiCheck => (check ? { ...check, path } : null);

function first(...checks: (() => WifiCheck)[]): WifiCheck {
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
}

/** The devices a policy reaches among `devices`. */
export function targetsOf<T extends { sn: string }>(
  policy: Pick<WifiPolicy, 'scope' | 'devices'>,
  devices: readonly T[],
): T[] {
  if (policy.scope === WifiScope.ALL) return [...devices];
  const chosen = new Set(policy.devices.map((sn) => sn.toUpperCase()));
  return devices.filter((d) => chosen.has(d.sn.toUpperCase()));
}

/**
 * SPEC.md §3 "associated RF" of a policy: the radios it is on, as the devices it reaches have them
 * (deviceBandsFor: 5G is both halves of a tri-band AP), each with how many devices broadcast it
 * there. Derived, never stored: the bands are the policy's choice, the radios the models'.
 */
export function associatedRadios(
  policy: Pick<WifiPolicy, 'scope' | 'devices' | 'bands'>,
  devices: readonly { sn: string; bands: readonly FrequencyBand[] }[],
): { band: FrequencyBand; devices: number }[] {
  const counts = new Map<FrequencyBand, number>();
  for (const d of targetsOf(policy, devices)) {
    for (const b of deviceBandsFor(policy.bands, d.bands)) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  return WIFI_BANDS.filter((b) => counts.has(b)).map((band) => ({ band, devices: counts.get(band)! }));
}

/** SPEC.md §5: a RADIUS server for the enterprise modes, ip, port 1-65535 and a secret. */
function validateRadius(r: WifiPolicy['radius'], path: string): WifiCheck {
  if (!r) return at(path, invalid(Codes.FORM_DATA, 'Enterprise encryption needs a RADIUS server'));
  return first(
    () => at(`${path}.ip`, validateIpv4(r.ip, 'RADIUS IP')),
    () => at(`${path}.port`, validateIntegerInRange(r.port, LIMITS.PORT_MIN, LIMITS.PORT_MAX, 'RADIUS port')),
    () =>
      r.password.length < 1 || r.password.length > 64 || !isPrintableAscii(r.password)
        ? at(
            `${path}.password`,
            invalid(Codes.FORM_DATA, `${lengthMessage('RADIUS password', 1, 64)} of printable ASCII`),
          )
        : null,
  );
}

function validatePolicy(
  p: WifiPolicy,
  i: number,
  others: readonly WifiPolicy[],
  rules: WifiRules,
): WifiCheck {
  const path = `policies.${i}`;
  const devices = rules.devices;
  return first(
    () => {
      const f = validateWirelessPolicyName(
        p.name,
        others.map((o) => o.name),
      );
      // A second policy of the same name is SPEC.md §8's "WLAN exists" (88).
      if (f?.code === Codes.NAME_TAKEN) {
        return at(
          `${path}.name`,
          invalid(Codes.WLAN_EXISTS, `A Wi-Fi policy named ${p.name} already exists`),
        );
      }
      return at(`${path}.name`, f);
    },
    () =>
      p.ssid.trim() === ''
        ? at(`${path}.ssid`, invalid(Codes.SSID_TOO_SHORT, 'The SSID cannot be empty'))
        : at(`${path}.ssid`, validateSsid(p.ssid)),
    () =>
      others.some((o) => o.ssid === p.ssid)
        ? at(
            `${path}.ssid`,
            rules.mesh
              ? invalid(Codes.MESH_SAME_SSID, `The SSID ${p.ssid} already exists in the mesh network`)
              : invalid(Codes.SAME_SSID, `The SSID ${p.ssid} already exists`),
          )
        : null,
    () =>
      Number.isInteger(p.encryption) && Object.values(EncryptionMode).includes(p.encryption as EncryptionMode)
        ? null
        : at(`${path}.encryption`, invalid(Codes.FORM_DATA, 'Unknown encryption mode')),
    () =>
      requiresPassphrase(p.encryption)
        ? at(`${path}.password`, validateWifiPassword(p.password, p.encryption))
        : null,
    () => at(`${path}.cipher`, validateCipher(p.encryption, p.cipher)),
    () => at(`${path}.keyUpdateInterval`, validateKeyUpdateInterval(p.keyUpdateInterval)),
    () =>
      p.vlan === undefined
        ? null
        : at(`${path}.vlan`, validateVlanId(p.vlan, { min: 1, max: LIMITS.VLAN_ID_MAX }, 'Wi-Fi VLAN ID')),
    () => at(`${path}.maxClients`, validateMaxClients(p.maxClients)),
    () =>
      p.guest
        ? at(
            `${path}.guestRateKbps`,
            validateIntegerInRange(p.guestRateKbps, 0, GUEST_RATE_MAX_KBPS, 'Guest rate limit (kbit/s)'),
          )
        : null,
    () => (requiresRadius(p.encryption) ? validateRadius(p.radius, `${path}.radius`) : null),
    () => at(`${path}.bands`, validateBands(p.bands)),
    () =>
      p.scope === WifiScope.DEVICES && rules.mesh
        ? at(
            `${path}.scope`,
            invalid(
              Codes.MESH_WLAN_CONFLICT,
              'In a cable-free (mesh) project a Wi-Fi network applies to every node, not to chosen devices',
            ),
          )
        : null,
    () =>
      p.scope === WifiScope.DEVICES && p.devices.length === 0
        ? at(
            `${path}.devices`,
            invalid(Codes.SSID_DEVICES_TOO_FEW, 'Choose at least one device for this network'),
          )
        : null,
    () => {
      if (!devices || p.scope !== WifiScope.DEVICES) return null;
      const known = new Set(devices.map((d) => d.sn.toUpperCase()));
      const j = p.devices.findIndex((sn) => !known.has(sn.toUpperCase()));
      return j < 0
        ? null
        : at(
            `${path}.devices.${j}`,
            invalid(Codes.FORM_DATA, `${p.devices[j]} is not a Wi-Fi device of this project`),
          );
    },
    () => {
      if (!devices) return null;
      const targets = targetsOf(p, devices);
      if (p.scope === WifiScope.DEVICES) {
        const lacking = targets.find((d) => deviceBandsFor(p.bands, d.bands).length === 0);
        return lacking
          ? at(
              `${path}.bands`,
              invalid(Codes.WIFI_CONFLICT, `${lacking.sn} has none of the bands ${p.bands.join(', ')}`),
            )
          : null;
      }
      // A network for every device must run somewhere (when the project has Wi-Fi devices at all).
      return targets.length > 0 && !targets.some((d) => deviceBandsFor(p.bands, d.bands).length > 0)
        ? at(
            `${path}.bands`,
            invalid(Codes.WIFI_CONFLICT, `No device of the project has the bands ${p.bands.join(', ')}`),
          )
        : null;
    },
    () => at(`${path}.schedule`, validateTimerShutdown(p.schedule)),
  );
}

/**
 * Every rule of SPEC.md §5, §8 and §9 on the project's Wi-Fi policies (normalised first with
 * normaliseWifiPolicy): null, or the first failure with its catalogue code and its path.
 * - counts: 32 policies (40), 7 for all devices (5320), 30 for chosen devices (5321), 1 guest (5322);
 * - each policy: name (16, reserved 5044, taken 88), SSID (empty 92, 1-32 bytes 16, taken 24 or 89
 *   in a mesh project), encryption and cipher (16), password (6), key update interval, VLAN, max
 *   clients, guest rate, RADIUS (16), bands (16; none the targeted devices have 414), chosen devices
 *   (none 135; not a member 16; in a mesh project 93), timer shutdown (59);
 * - each device: at most 8 SSIDs per band (136) and 128 clients per band in all (91);
 * - a mesh project keeps at least one network while it has nodes (26).
 */
export function validateWifiDocument(doc: WifiDocument, rules: WifiRules = {}): WifiCheck {
  const policies = doc.policies;
  const all = policies.filter((p) => p.scope === WifiScope.ALL);
  const chosen = policies.filter((p) => p.scope === WifiScope.DEVICES);
  const count = first(
    () =>
      policies.length > LIMITS.WIRELESS_POLICIES
        ? at(
            'policies',
            invalid(Codes.MAX_WIRELESS, maxCountMessage(LIMITS.WIRELESS_POLICIES, 'wireless policies')),
          )
        : null,
    () =>
      all.length > LIMITS.ALL_DEVICE_WIFI_NETWORKS
        ? at(
            `policies.${policies.indexOf(all[LIMITS.ALL_DEVICE_WIFI_NETWORKS])}.scope`,
            invalid(Codes.ALL_DEVICE_WIFI_LIMIT, 'At most 7 Wi-Fi networks can apply to all devices'),
          )
        : null,
    () =>
      chosen.length > LIMITS.SPECIFIED_DEVICE_WIFI_NETWORKS
        ? at(
            `policies.${policies.indexOf(chosen[LIMITS.SPECIFIED_DEVICE_WIFI_NETWORKS])}.scope`,
            invalid(
              Codes.SPECIFIED_DEVICE_WIFI_LIMIT,
              'At most 30 Wi-Fi networks can apply to specified devices',
            ),
          )
        : null,
    () => {
      const guests = policies.filter((p) => p.guest);
      return guests.length > LIMITS.GUEST_WIFI_NETWORKS
        ? at(
            `policies.${policies.indexOf(guests[LIMITS.GUEST_WIFI_NETWORKS])}.guest`,
            invalid(Codes.GUEST_WIFI_LIMIT, 'Only one guest network is allowed'),
          )
        : null;
    },
    () => {
      const ids = policies.map((p) => p.id).filter((id) => id !== undefined);
      const j = ids.findIndex((id, k) => ids.indexOf(id) !== k);
      return j < 0 ? null : at('policies', invalid(Codes.FORM_DATA, `Policy id ${ids[j]} is given twice`));
    },
  );
  if (count) return count;

  const focus = rules.focus;
  if (focus !== undefined && policies[focus]) {
    const r = validatePolicy(
      policies[focus],
      focus,
      policies.filter((_, k) => k !== focus),
      rules,
    );
    if (r) return r;
  }
  for (const [i, p] of policies.entries()) {
    if (i === focus) continue;
    const r = validatePolicy(p, i, policies.slice(0, i), rules);
    if (r) return r;
  }

  for (const d of rules.devices ?? []) {
    const perBand = new Map<FrequencyBand, { ssids: number; clients: number; last: number }>();
    for (const [i, p] of policies.entries()) {
      if (!targetsOf(p, [d]).length) continue;
      for (const b of deviceBandsFor(p.bands, d.bands)) {
        const slot = perBand.get(b) ?? { ssids: 0, clients: 0, last: i };
        slot.ssids += 1;
        slot.clients += p.maxClients;
        slot.last = i;
        perBand.set(b, slot);
        if (slot.ssids > SSIDS_PER_BAND) {
          return at(
            `policies.${i}.bands`,
            invalid(Codes.SSID_DEVICES_FULL, `${d.sn} already broadcasts ${SSIDS_PER_BAND} networks on ${b}`),
          );
        }
        const max = d.maxClientsPerBand || LIMITS.CLIENTS_PER_BAND;
        if (slot.clients > max) {
          return at(
            `policies.${i}.maxClients`,
            invalid(
              Codes.MAX_CLIENTS,
              `At most ${max} clients per band: the networks of ${d.sn} on ${b} would allow ${slot.clients}`,
            ),
          );
        }
      }
    }
  }

  if (
    rules.mesh &&
    policies.length === 0 &&
    (rules.previousCount ?? 0) > 0 &&
    (rules.devices?.length ?? 0) > 0
  ) {
    return at(
      'policies',
      invalid(
        Codes.WIRELESS_IN_USE,
        "The mesh network's last Wi-Fi network is in use by its nodes and cannot be removed",
      ),
    );
  }
  return null;
}

/** Whether `ssid` fits in 32 bytes (the SSID field's own limit, for the form's counter). */
export const ssidBytes = (ssid: string): number => byteLength(ssid);

// ── API shapes ───────────────────────────────────────────────────────────────

const ExpectedRevision = z.int().min(0).max(ID_MAX);

export const SaveWifiBody = z.object({
  expectedRevision: ExpectedRevision,
  document: WifiDocument,
  reason: ConfigReason,
});
export type SaveWifiBody = z.input<typeof SaveWifiBody>;

export const WifiPolicyBody = z.object({
  expectedRevision: ExpectedRevision,
  policy: WifiPolicy,
  reason: ConfigReason,
});
export type WifiPolicyBody = z.input<typeof WifiPolicyBody>;

export const WifiPolicyParams = z.object({ id: IdParam, policyId: IdParam });
export const DeleteWifiPolicyQuery = z.object({
  expectedRevision: z
    .string()
    .regex(/^\d{1,10}$/, 'Enter the revision the change is based on')
    .transform(Number)
    .pipe(ExpectedRevision),
});

export const RollbackWifiBody = z.object({
  revision: z.int().min(1).max(ID_MAX),
  expectedRevision: ExpectedRevision,
  reason: ConfigReason,
});
export type RollbackWifiBody = z.input<typeof RollbackWifiBody>;

/** Why a device does not take the change now (as on the network screens). */
export const WifiDeviceNote = { OFFLINE: 'offline', UPGRADING: 'upgrading', LOCAL: 'local' } as const;
export type WifiDeviceNote = (typeof WifiDeviceNote)[keyof typeof WifiDeviceNote];

/** One Wi-Fi device of the project and where its Wi-Fi stands. */
export const WifiDeviceView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  type: z.string(),
  /** The radios the model has, and the clients each takes (SPEC.md §9: 128). */
  bands: z.array(bandSchema),
  maxClientsPerBand: z.int(),
  /** The policies (ids) the device runs. */
  policies: z.array(z.int()),
  /** SPEC.md §3 Wi-Fi sync state: 1 configured (it runs the latest policies), 0 not configured. */
  sync: z.union([z.literal(WifiSyncState.NOT_CONFIGURED), z.literal(WifiSyncState.CONFIGURED)]),
  note: z.enum([WifiDeviceNote.OFFLINE, WifiDeviceNote.UPGRADING, WifiDeviceNote.LOCAL]).nullable(),
  revision: z.int(),
  reportedRevision: z.int(),
  status: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  code: z.int().nullable(),
  /** The SSIDs the device reports it broadcasts now (a timer shutdown takes one off the air). */
  runningSsids: z.array(z.string()),
});
export type WifiDeviceView = z.infer<typeof WifiDeviceView>;

export const WifiProgress = z.object({
  pending: z.int(),
  applied: z.int(),
  failed: z.int(),
  /** Not configurable now (local management mode). */
  skipped: z.int(),
});
export type WifiProgress = z.infer<typeof WifiProgress>;

export const WifiView = z.object({
  /** The latest revision (0: none saved yet). */
  revision: z.int(),
  hash: z.string().nullable(),
  /** The policies, secrets as ********. */
  document: WifiDocument,
  /** The project's kind (0 WLAN, 1 mesh) and the time zone the schedules run in. */
  netMode: z.int(),
  timeZone: z.string(),
  devices: z.array(WifiDeviceView),
  progress: WifiProgress,
});
export type WifiView = z.infer<typeof WifiView>;

/** The rules of a view's project, for the form's own check (validateWifiDocument). */
export function wifiRulesOf(view: Pick<WifiView, 'netMode' | 'devices' | 'document'>): WifiRules {
  return {
    mesh: view.netMode === NetMode.MESH,
    devices: view.devices.map((d) => ({ sn: d.sn, bands: d.bands, maxClientsPerBand: d.maxClientsPerBand })),
    previousCount: view.document.policies.length,
  };
}
