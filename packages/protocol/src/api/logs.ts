import { z } from 'zod';
import { DeviceEventName, EventLevel } from '../device/messages.ts';
import { LIMITS } from '../enums/limits.ts';
import { LOG_RETENTION_DAYS } from '../enums/tools.ts';
import { Codes } from '../errors.ts';
import { PageQuery } from './envelope.ts';

/**
 * The Log screen (SPEC.md §2 /manage/runlog): what devices reported (device log) and what
 * administrators did (audit log), filtered by time, device and type, paged by the server and
 * downloadable as CSV or xlsx (at most LIMITS.LOGS_PER_DOWNLOAD rows, SPEC.md §9). Retention is a
 * per-project choice of LOG_RETENTION_DAYS (docs/decisions/0036-logs.md).
 */

/** The retention a project starts with (SPEC.md §9 lists the choices, not a default: decision 0036). */
export const DEFAULT_LOG_RETENTION_DAYS = 30;
/** Audit rows are kept this long whatever a project chooses (the longest choice; decision 0036). */
export const AUDIT_RETENTION_DAYS = 180;

export const LOG_DOWNLOAD_FORMATS = ['csv', 'xlsx'] as const;
export type LogDownloadFormat = (typeof LOG_DOWNLOAD_FORMATS)[number];

const rangeMessage = 'The time range is invalid: its start is after its end';
const isoTime = z.iso.datetime({ offset: true, message: 'Enter a time as ISO 8601' });

/** Time range filter shared by both logs; `from` after `to` answers 5230. */
const TimeRange = z.object({
  from: isoTime.optional(),
  to: isoTime.optional(),
});

function withRange<T extends z.ZodObject>(schema: T) {
  return schema.superRefine((q, ctx) => {
    const { from, to } = q as { from?: string; to?: string };
    if (from && to && Date.parse(from) > Date.parse(to)) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: rangeMessage,
        params: { code: Codes.LOG_RANGE },
      });
    }
  });
}

const DeviceLogFilterShape = TimeRange.extend({
  /** One device of the project. */
  sn: z.string().trim().min(1).max(64).optional(),
  /** The event name a device reported (DeviceEventName) or one the server records (e.g. project-rules). */
  type: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'Enter an event type')
    .optional(),
  level: z.enum([EventLevel.INFO, EventLevel.WARNING, EventLevel.CRITICAL]).optional(),
});

const AuditFilterShape = TimeRange.extend({
  /** The entity id the write was about (a device SN, a share id…). */
  sn: z.string().trim().min(1).max(64).optional(),
  /** The audit action, e.g. device.add. */
  type: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9._-]+$/i, 'Enter an action')
    .optional(),
});

/** The lists sort by time: newest first unless asked (downloads are always the newest first). */
const Order = z.object({ order: z.enum(['asc', 'desc']).default('desc') });

/** GET /projects/:id/logs/device */
export const DeviceLogQuery = withRange(PageQuery.extend(DeviceLogFilterShape.shape).extend(Order.shape));
export type DeviceLogQuery = z.infer<typeof DeviceLogQuery>;

/** GET /projects/:id/logs/audit */
export const AuditLogQuery = withRange(PageQuery.extend(AuditFilterShape.shape).extend(Order.shape));
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

const Format = z.object({ format: z.enum(LOG_DOWNLOAD_FORMATS).default('csv') });

/** GET /projects/:id/logs/device/download */
export const DeviceLogDownloadQuery = withRange(DeviceLogFilterShape.extend(Format.shape));
export type DeviceLogDownloadQuery = z.infer<typeof DeviceLogDownloadQuery>;

/** GET /projects/:id/logs/audit/download */
export const AuditLogDownloadQuery = withRange(AuditFilterShape.extend(Format.shape));
export type AuditLogDownloadQuery = z.infer<typeof AuditLogDownloadQuery>;

/** One event a device reported (or the server recorded about a device). */
export const DeviceLogView = z.object({
  id: z.number().int(),
  /** When it happened (device time, clamped to the kept window). */
  at: z.string(),
  receivedAt: z.string(),
  sn: z.string(),
  /** The device's name in the project ('' when it has none or left the project). */
  deviceName: z.string(),
  eventId: z.string(),
  event: z.string(),
  level: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type DeviceLogView = z.infer<typeof DeviceLogView>;

/** GET/PUT /projects/:id/logs/settings */
export const LogSettingsView = z.object({
  retentionDays: z.number().int(),
  /** The choices (SPEC.md §9). */
  choices: z.array(z.number().int()),
  auditRetentionDays: z.number().int(),
  maxDownloadRows: z.number().int(),
});
export type LogSettingsView = z.infer<typeof LogSettingsView>;

export const LogSettingsBody = z
  .object({
    retentionDays: z.union(
      LOG_RETENTION_DAYS.map((d) => z.literal(d)) as unknown as [
        z.ZodLiteral<7>,
        z.ZodLiteral<30>,
        z.ZodLiteral<90>,
        z.ZodLiteral<180>,
      ],
      { message: `Choose ${LOG_RETENTION_DAYS.join(', ')} days` },
    ),
  })
  .strict();
export type LogSettingsBody = z.infer<typeof LogSettingsBody>;

export const LOG_MAX_DOWNLOAD_ROWS = LIMITS.LOGS_PER_DOWNLOAD;

/** The event names a simulated or real device reports (the type filter's choices). */
export const DEVICE_LOG_TYPES: readonly string[] = Object.values(DeviceEventName);
