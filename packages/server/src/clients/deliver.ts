import { isDeepStrictEqual } from 'node:util';
import type { Actor } from '../audit/audit.ts';
import { commitDeviceRevision } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import type { DeviceRow } from '../devices/row.ts';
import type { Secrets } from '../security/secrets.ts';

/**
 * The blacklist as configuration (decision 0035): a new revision of the device's configuration
 * whose `clientBlacklist` section is `macs` (left out when empty), committed in the caller's
 * transaction and pushed by the caller after commit (or by the convergence job). Answers whether a
 * revision was needed.
 */
export async function setBlacklistSection(
  tx: DbOrTx,
  secrets: Secrets,
  row: DeviceRow,
  macs: readonly string[],
  author: Pick<Actor, 'accountId' | 'account'>,
  now: Date,
): Promise<boolean> {
  const current = (row.desiredConfig ? secrets.openDocument(row.desiredConfig) : {}) as Record<
    string,
    unknown
  >;
  if (isDeepStrictEqual(current.clientBlacklist ?? [], [...macs])) return false;
  const { clientBlacklist: _old, ...rest } = current;
  await commitDeviceRevision(tx, secrets, {
    sn: row.sn,
    projectId: row.projectId ?? undefined,
    document: macs.length ? { ...rest, clientBlacklist: [...macs] } : rest,
    author,
    reason: 'Client blacklist',
    now,
  });
  return true;
}
