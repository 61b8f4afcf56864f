import { ERROR_CATALOGUE, type ErrorCode } from '@beacon/protocol';

export interface CodeRow {
  code: number;
  message: string;
  status: number;
  /** i18n key of what to do. */
  adviceKey: string;
}

/** What to do, by code where the code says more than its HTTP status, else by the status. */
const BY_CODE: Partial<Record<number, string>> = {
  9: 'signIn',
  10: 'signIn',
  70: 'signIn',
  36: 'deviceOffline',
  76: 'localManaged',
  71: 'waitDevice',
  5090: 'webOnly',
  5440: 'readOnlyKey',
  5441: 'wait',
  5442: 'keyProjects',
  5443: 'askMain',
  5444: 'askMain',
  5031: 'demo',
  5032: 'askOwner',
};

function byStatus(status: number): string {
  if (status === 401) return 'signIn';
  if (status === 403) return 'askOwner';
  if (status === 404) return 'reload';
  if (status === 409) return 'conflict';
  if (status === 429) return 'wait';
  if (status >= 500) return 'retryLater';
  return 'checkInput';
}

/** Every code of the catalogue (SPEC.md §8 and ours), generated from protocol errors.ts. */
export function codeRows(): CodeRow[] {
  return (Object.keys(ERROR_CATALOGUE) as unknown as ErrorCode[])
    .map((key) => {
      const code = Number(key);
      const entry = ERROR_CATALOGUE[key as ErrorCode];
      return {
        code,
        message: entry.message,
        status: entry.status,
        adviceKey: BY_CODE[code] ?? byStatus(entry.status),
      };
    })
    .filter((r) => r.code !== 0)
    .sort((a, b) => a.code - b.code);
}
