/** SPEC.md §4 alarm read state. */
export const AlarmReadState = { UNREAD: 0, READ: 1 } as const;
export type AlarmReadState = (typeof AlarmReadState)[keyof typeof AlarmReadState];

/** SPEC.md §3 backup type. */
export const BackupType = { RESTORE_POINT: 'restore_point', GENERAL: 'general' } as const;
export type BackupType = (typeof BackupType)[keyof typeof BackupType];

/** SPEC.md §4 backup sync states. */
export const BackupSyncState = {
  UNSYNCHRONIZED: 'unsynchronized',
  SYNCHRONIZING: 'synchronizing',
  SYNCHRONIZED: 'synchronized',
  FAILED: 'failed',
} as const;
export type BackupSyncState = (typeof BackupSyncState)[keyof typeof BackupSyncState];

/** SPEC.md §3 and §6 share permission: read-only (view) or read-write (device management). */
export const SharePermission = { READ_ONLY: 'r', READ_WRITE: 'rw' } as const;
export type SharePermission = (typeof SharePermission)[keyof typeof SharePermission];

/** SPEC.md §3 share validity: permanent or a number of hours. */
export const ShareValidity = { PERMANENT: 'permanent', TIMED: 'timed' } as const;
export type ShareValidity = (typeof ShareValidity)[keyof typeof ShareValidity];

/** SPEC.md §4: a share is removed by delete or unbind. */
export const ShareRemoval = { DELETE: 'delete', UNBIND: 'unbind' } as const;
export type ShareRemoval = (typeof ShareRemoval)[keyof typeof ShareRemoval];

/** SPEC.md §9 status chart time ranges, with their length in hours. */
export const StatusChartRange = { H12: '12h', H24: '24h', H72: '72h', D7: '7d', D30: '30d' } as const;
export type StatusChartRange = (typeof StatusChartRange)[keyof typeof StatusChartRange];
export const STATUS_CHART_RANGE_HOURS: Readonly<Record<StatusChartRange, number>> = {
  '12h': 12,
  '24h': 24,
  '72h': 72,
  '7d': 168,
  '30d': 720,
};

/** SPEC.md §9 log retention choices in days. */
export const LOG_RETENTION_DAYS = [7, 30, 90, 180] as const;
export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];
