import type { ErrorCode, Failure } from '../errors.ts';
import { fail } from '../errors.ts';

/**
 * Every validator of SPEC.md §5 answers `null` when the value is valid, or the Failure
 * (catalogue code + en-US message) that the form shows and the server returns.
 */
export type Check = Failure | null;

export function invalid(code: ErrorCode, message: string): Failure {
  return fail(code, message);
}
