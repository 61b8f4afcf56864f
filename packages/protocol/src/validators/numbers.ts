import { Codes, type ErrorCode } from '../errors.ts';
import { integerMessage, rangeMessage, toInteger } from './messages.ts';
import { type Check, invalid } from './result.ts';

/**
 * The generic integer-in-range rule used by the numeric fields of SPEC.md §5: integer only, then
 * min-max. `code` is the catalogue code of both failures (16, form data, unless a field has its own).
 */
export function validateIntegerInRange(
  value: number | string,
  min: number,
  max: number,
  label: string,
  code: ErrorCode = Codes.FORM_DATA,
): Check {
  const n = toInteger(value);
  if (!Number.isInteger(n)) return invalid(code, integerMessage(label));
  if (n < min || n > max) return invalid(code, rangeMessage(label, min, max));
  return null;
}
