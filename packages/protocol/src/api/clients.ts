import { z } from 'zod';
import { ClientKind, macSchema } from '../device/messages.ts';
import { FrequencyBand } from '../enums/wireless.ts';
import { Paged, PageQuery } from './envelope.ts';
import { ProjectParams } from './ids.ts';

/**
 * Online clients (SPEC.md §3 Online client; /manage/onlinelist and /manage/onlinestat;
 * docs/decisions/0035-online-clients.md).
 */

/** At most this many MACs in a project's client blacklist (issue 9). */
export const CLIENT_BLACKLIST_MAX = 100;
/** The list's offline clients: those that left in the latest this many hours and are not back. */
export const CLIENT_OFFLINE_HOURS = 24;
/** At most this many clients in one batch force offline. */
export const FORCE_OFFLINE_MAX = 100;

/** Longest page cursor (base64url of the last row's sort key and MAC). */
export const CLIENT_CURSOR_MAX = 512;

export const CLIENT_SORTS = [
  'name',
  'ip',
  'mac',
  'ssid',
  'band',
  'rssi',
  'txBytes',
  'rxBytes',
  'txRate',
  'rxRate',
  'onlineSeconds',
  'offlineSeconds',
  'device',
  'kind',
] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];

const BANDS = Object.values(FrequencyBand) as [FrequencyBand, ...FrequencyBand[]];
const KINDS = Object.values(ClientKind) as [ClientKind, ...ClientKind[]];

/**
 * GET /projects/{id}/clients: search (`q` over name, IP and MAC) and the §3 filter fields that
 * apply to a client (ip, model of its device, name, vlan, mac), filters, sort and pages.
 */
export const ClientListQuery = PageQuery.extend({
  q: z.string().trim().max(64).optional(),
  ip: z.string().trim().max(64).optional(),
  mac: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  model: z.string().trim().max(64).optional(),
  vlan: z.coerce.number().int().min(1).max(4094).optional(),
  ssid: z.string().trim().max(64).optional(),
  band: z.enum(BANDS).optional(),
  kind: z.enum(KINDS).optional(),
  /** The device the client is associated with. */
  sn: z.string().trim().max(64).optional(),
  wired: z.enum(['true', 'false']).optional(),
  /** online (default): connected now; offline: left in the latest CLIENT_OFFLINE_HOURS, not back. */
  status: z.enum(['online', 'offline']).default('online'),
  sort: z.enum(CLIENT_SORTS).default('onlineSeconds'),
  order: z.enum(['asc', 'desc']).default('desc'),
  /**
   * The page after the one that answered this `nextCursor` (keyset paging, decision 0044): stable
   * while clients join and leave, and as fast on the last page as on the first. Same sort, order,
   * status and filters as that call; `page` is then only echoed.
   */
  cursor: z.string().trim().max(CLIENT_CURSOR_MAX).optional(),
});
export type ClientListQuery = z.infer<typeof ClientListQuery>;

/** One online client: every field of SPEC.md §3 Online client. */
export const ClientView = z.object({
  mac: z.string(),
  name: z.string(),
  ip: z.string(),
  ssid: z.string().nullable(),
  band: z.string().nullable(),
  /** Signal strength, dBm; null for a wired client. */
  rssi: z.number().int().nullable(),
  /** Bytes sent and received since the client joined. */
  txBytes: z.number(),
  rxBytes: z.number(),
  /** kbit/s. */
  txRate: z.number(),
  rxRate: z.number(),
  /** Seconds online (this session; for an offline client, its last session). */
  onlineSeconds: z.number().int(),
  /** Seconds since it went offline; null while online. */
  offlineSeconds: z.number().int().nullable(),
  /** The associated device. */
  sn: z.string(),
  deviceName: z.string().nullable(),
  deviceModel: z.string().nullable(),
  kind: z.string(),
  wired: z.boolean(),
  vlan: z.number().int().nullable(),
  joinedAt: z.string(),
  seenAt: z.string(),
});
export type ClientView = z.infer<typeof ClientView>;

/** GET /projects/{id}/clients: a page, the total of the list, and the cursor of the next page. */
export const ClientPage = Paged(ClientView).extend({
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type ClientPage = z.infer<typeof ClientPage>;

export const CLIENT_STAT_RANGES = ['12h', '24h', '72h', '7d', '30d'] as const;
export type ClientStatRange = (typeof CLIENT_STAT_RANGES)[number];
export const CLIENT_STAT_RANGE_MS: Record<ClientStatRange, number> = {
  '12h': 12 * 3_600_000,
  '24h': 24 * 3_600_000,
  '72h': 72 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** GET /projects/{id}/clients/stats: clients over time (range) and pies of the latest `days` days. */
export const ClientStatsQuery = z.object({
  range: z.enum(CLIENT_STAT_RANGES).default('24h'),
  days: z.coerce.number().int().min(1).max(30).default(7),
});
export type ClientStatsQuery = z.infer<typeof ClientStatsQuery>;

const Series = z.object({
  key: z.string(),
  /** [time (ms epoch) of the bucket's start, clients] — the most seen in the bucket. */
  points: z.array(z.tuple([z.number(), z.number()])),
});
const Slice = z.object({ key: z.string(), count: z.number().int() });

export const ClientStatsView = z.object({
  range: z.enum(CLIENT_STAT_RANGES),
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  total: z.array(z.tuple([z.number(), z.number()])),
  byBand: z.array(Series),
  /** At most STATS_SSID_SERIES_MAX (api/stats.ts): the SSIDs with the most clients over the range. */
  bySsid: z.array(Series),
  /** SSIDs of the range not in `bySsid`. */
  bySsidOmitted: z.number().int(),
  /** Distinct clients seen in the latest `days` days, by band, SSID and client type. */
  days: z.number().int(),
  pies: z.object({ band: z.array(Slice), ssid: z.array(Slice), kind: z.array(Slice) }),
  /** Clients online now. */
  online: z.number().int(),
});
export type ClientStatsView = z.infer<typeof ClientStatsView>;

/** POST /projects/{id}/clients/force-offline: one or many clients (batch force offline). */
export const ForceOfflineBody = z.object({
  clients: z
    .array(z.object({ sn: z.string().trim().min(1).max(64), mac: macSchema }).strict())
    .min(1)
    .max(FORCE_OFFLINE_MAX),
});
export type ForceOfflineBody = z.infer<typeof ForceOfflineBody>;

export const ForceOfflineView = z.object({
  results: z.array(
    z.object({
      sn: z.string(),
      mac: z.string(),
      /** 0 done; else the catalogue code (36 offline, 5221 not on the device, …). */
      code: z.number().int(),
      message: z.string().nullable(),
    }),
  ),
});
export type ForceOfflineView = z.infer<typeof ForceOfflineView>;

export const BlacklistEntryView = z.object({
  mac: z.string(),
  note: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type BlacklistEntryView = z.infer<typeof BlacklistEntryView>;

export const BlacklistView = z.object({
  items: z.array(BlacklistEntryView),
  max: z.number().int(),
});
export type BlacklistView = z.infer<typeof BlacklistView>;

/** POST /projects/{id}/clients/blacklist: add MACs (the devices then refuse and drop them). */
export const AddBlacklistBody = z
  .object({
    macs: z.array(macSchema).min(1).max(CLIENT_BLACKLIST_MAX),
    note: z.string().trim().max(64).default(''),
  })
  .strict();
export type AddBlacklistBody = z.input<typeof AddBlacklistBody>;

/** DELETE /projects/{id}/clients/blacklist/{mac}. */
export const BlacklistParams = ProjectParams.extend({ mac: macSchema });
