import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import { lengthMessage } from './messages.ts';
import { validateIntegerInRange } from './numbers.ts';
import { type Check, invalid } from './result.ts';

/** SPEC.md §5: DHCP pool name, 1-32 characters of digits, letters and underscore. */
export function validatePoolName(value: string): Check {
  if (value.length < 1 || value.length > LIMITS.POOL_NAME_MAX) {
    return invalid(Codes.FORM_DATA, lengthMessage('Pool name', 1, LIMITS.POOL_NAME_MAX));
  }
  if (!/^\w+$/.test(value))
    return invalid(Codes.FORM_DATA, 'Pool name can contain only digits, letters and underscore');
  return null;
}

/** Which lease rule applies: a custom lease (30-10080 min) or any other lease field (1-525600 min). */
export type LeaseKind = 'custom' | 'other';

/** SPEC.md §5: DHCP lease in minutes; custom 30-10080, other 1-525600. */
export function validateLease(minutes: number | string, kind: LeaseKind = 'custom'): Check {
  return kind === 'custom'
    ? validateIntegerInRange(minutes, LIMITS.LEASE_CUSTOM_MIN, LIMITS.LEASE_CUSTOM_MAX, 'Lease (minutes)')
    : validateIntegerInRange(minutes, LIMITS.LEASE_MIN, LIMITS.LEASE_MAX, 'Lease (minutes)');
}
