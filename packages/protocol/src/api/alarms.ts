import { z } from 'zod';
import { Codes } from '../errors.ts';
import { validateEmail } from '../validators/account.ts';
import { invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { PageQuery } from './envelope.ts';

/**
 * Alarms (SPEC.md §2 /manage/alarminfo, §3 Alarm, §4 read state): raised from device events and
 * from rules evaluated by a recurring sweep (server src/alarms/), one per incident. Delivered per
 * project by email and by a signed webhook (docs/alarms.md); muted by maintenance windows.
 */

export const AlarmKind = {
  OFFLINE: 'offline',
  REBOOT: 'reboot',
  CPU_HIGH: 'cpu-high',
  MEMORY_HIGH: 'memory-high',
  POE_OVER_BUDGET: 'poe-over-budget',
  IP_CONFLICT: 'ip-conflict',
  UPGRADE_FAILED: 'upgrade-failed',
} as const;
export type AlarmKind = (typeof AlarmKind)[keyof typeof AlarmKind];
export const ALARM_KINDS = Object.values(AlarmKind) as [AlarmKind, ...AlarmKind[]];

export const ALARM_LIMITS = {
  /** Ids in one mark-read call. */
  READ_IDS: 200,
  EMAILS: 10,
  URL_CHARS: 2048,
  SECRET_MIN: 16,
  SECRET_MAX: 128,
  /** Devices of one maintenance window. */
  WINDOW_DEVICES: 200,
  /** Longest maintenance window (days). */
  WINDOW_DAYS: 31,
  REASON_CHARS: 200,
  OFFLINE_MINUTES_MAX: 1440,
} as const;

/** An SN filter or selection (the form the device routes take). */
const Sn = z.string().trim().min(1).max(32);
const IsoTime = z.iso.datetime({ offset: true });

export const AlarmView = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  /** When the incident began (the event's time, or when the rule first saw it). */
  at: z.string(),
  kind: z.enum(ALARM_KINDS),
  /** The event text (en-US). */
  event: z.string(),
  level: z.enum(['warning', 'critical']),
  sn: z.string(),
  mac: z.string().nullable(),
  model: z.string(),
  name: z.string(),
  project: z.string(),
  /** SPEC.md §4: unread 0, read 1. */
  read: z.union([z.literal(0), z.literal(1)]),
  /** Messages that repeated the incident while it was open. */
  count: z.number().int(),
  lastAt: z.string(),
  /** When the incident ended (the condition cleared, or quiet for a while); null while open. */
  clearedAt: z.string().nullable(),
});
export type AlarmView = z.infer<typeof AlarmView>;

export const AlarmListQuery = PageQuery.extend({
  from: IsoTime.optional(),
  to: IsoTime.optional(),
  kind: z.enum(ALARM_KINDS).optional(),
  sn: Sn.optional(),
  read: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || v === 1, 'Read state is 0 (unread) or 1 (read)')
    .optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type AlarmListQuery = z.infer<typeof AlarmListQuery>;

export const MarkAlarmsReadBody = z
  .object({ ids: z.array(z.int().min(1).max(2_147_483_647)).min(1).max(ALARM_LIMITS.READ_IDS) })
  .strict();
export type MarkAlarmsReadBody = z.infer<typeof MarkAlarmsReadBody>;
export const MarkAllReadBody = z.object({}).strict();

export const AlarmReadView = z.object({ updated: z.number().int(), unread: z.number().int() });
export type AlarmReadView = z.infer<typeof AlarmReadView>;
export const AlarmUnreadView = z.object({ unread: z.number().int() });
export type AlarmUnreadView = z.infer<typeof AlarmUnreadView>;

const PRIVATE_V4 = [
  /^0\./,
  /^10\./,
  /^127\./,
  /^169\.254\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^192\.168\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
  /^(22[4-9]|2[3-5]\d)\./,
];

/**
 * True for addresses a webhook must not reach: loopback, private, link-local, carrier-grade NAT,
 * unspecified, multicast and reserved IPv4; loopback, unspecified, unique-local, link-local and
 * multicast IPv6 (and IPv4-mapped forms of the IPv4 ones).
 */
export function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = a.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return isPrivateAddress(mapped[1]);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(a)) return PRIVATE_V4.some((r) => r.test(a)) || a === '255.255.255.255';
  if (a.includes(':')) {
    return (
      a === '::' ||
      a === '::1' ||
      /^f[cd]/.test(a) ||
      /^fe[89ab]/.test(a) ||
      /^ff/.test(a) ||
      a.startsWith('::ffff:') ||
      a.startsWith('64:ff9b:')
    );
  }
  return false;
}

/**
 * What can be told of a webhook URL without the network: http or https, no credentials, no
 * loopback or private address literal, not `localhost`. The server checks the resolved address
 * again before each delivery (unless private targets are allowed by its settings).
 */
export function validateWebhookUrl(value: string, allowPrivate = false) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid(Codes.WEBHOOK_TARGET_REFUSED, 'Enter a valid http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return invalid(Codes.WEBHOOK_TARGET_REFUSED, 'Enter a valid http or https URL');
  if (url.username || url.password)
    return invalid(Codes.WEBHOOK_TARGET_REFUSED, 'The URL must not carry a user name or password');
  const host = url.hostname.toLowerCase();
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)))
    return invalid(Codes.WEBHOOK_TARGET_REFUSED, 'The webhook must not point at a private or local address');
  return null;
}

export const AlarmSettingsView = z.object({
  emails: z.array(z.string()),
  webhookUrl: z.string().nullable(),
  /** The signing secret is never shown again once saved. */
  webhookSecretSet: z.boolean(),
  offlineMinutes: z.number().int(),
  cpuPercent: z.number().int(),
  memoryPercent: z.number().int(),
});
export type AlarmSettingsView = z.infer<typeof AlarmSettingsView>;

export const ALARM_DEFAULTS = { offlineMinutes: 5, cpuPercent: 90, memoryPercent: 90 } as const;

/**
 * The CPU and memory rules look at a window of the device's stored samples, not its latest reading
 * (docs/alarms.md, docs/decisions/0045): they fire when every sample of the last WINDOW_MS is at or
 * above the threshold, and there are at least MIN_SAMPLES of them spanning at least MIN_SPAN_MS
 * (telemetry every 30 s gives ten). A single spike fires nothing; the alarm ends with the first
 * reading under the threshold.
 */
export const ALARM_RULE_WINDOW = { WINDOW_MS: 5 * 60_000, MIN_SAMPLES: 3, MIN_SPAN_MS: 3 * 60_000 } as const;

export const AlarmSettingsBody = z
  .object({
    emails: z
      .array(checked(z.string().trim(), validateEmail))
      .max(ALARM_LIMITS.EMAILS, `At most ${ALARM_LIMITS.EMAILS} recipients`),
    /** Empty: no webhook. */
    webhookUrl: checked(z.string().trim().max(ALARM_LIMITS.URL_CHARS), (v) =>
      v === '' ? null : validateWebhookUrl(v, true),
    ),
    /** Omitted: the stored secret is kept. */
    webhookSecret: z.string().min(ALARM_LIMITS.SECRET_MIN).max(ALARM_LIMITS.SECRET_MAX).optional(),
    offlineMinutes: z.int().min(1).max(ALARM_LIMITS.OFFLINE_MINUTES_MAX),
    cpuPercent: z.int().min(1).max(100),
    memoryPercent: z.int().min(1).max(100),
  })
  .strict();
export type AlarmSettingsBody = z.infer<typeof AlarmSettingsBody>;

export const DeliveryChannel = { EMAIL: 'email', WEBHOOK: 'webhook' } as const;
export const DeliveryState = { PENDING: 'pending', DELIVERED: 'delivered', FAILED: 'failed' } as const;

export const AlarmDeliveryView = z.object({
  id: z.number().int(),
  alarmId: z.number().int(),
  kind: z.enum(ALARM_KINDS),
  sn: z.string(),
  channel: z.enum([DeliveryChannel.EMAIL, DeliveryChannel.WEBHOOK]),
  target: z.string(),
  state: z.enum([DeliveryState.PENDING, DeliveryState.DELIVERED, DeliveryState.FAILED]),
  attempts: z.number().int(),
  /** HTTP status of the last webhook attempt. */
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type AlarmDeliveryView = z.infer<typeof AlarmDeliveryView>;

export const MaintenanceWindowView = z.object({
  id: z.number().int(),
  sns: z.array(z.string()),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type MaintenanceWindowView = z.infer<typeof MaintenanceWindowView>;

export const MaintenanceWindowBody = z
  .object({
    sns: z.array(Sn).min(1).max(ALARM_LIMITS.WINDOW_DEVICES),
    startsAt: IsoTime,
    endsAt: IsoTime,
    reason: z.string().trim().max(ALARM_LIMITS.REASON_CHARS).default(''),
  })
  .strict()
  .superRefine((b, ctx) => {
    const start = Date.parse(b.startsAt);
    const end = Date.parse(b.endsAt);
    if (!(end > start) || end - start > ALARM_LIMITS.WINDOW_DAYS * 86_400_000) {
      ctx.addIssue({
        code: 'custom',
        path: ['endsAt'],
        message: `The window ends after it starts and lasts at most ${ALARM_LIMITS.WINDOW_DAYS} days`,
        params: { code: Codes.WINDOW_RANGE },
      });
    }
  });
export type MaintenanceWindowBody = z.input<typeof MaintenanceWindowBody>;
