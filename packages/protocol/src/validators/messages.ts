/**
 * The shared range messages of SPEC.md §5: length in characters or bytes, numeric min-max, integer
 * only, ASCII and hexadecimal. Validators build their messages from these so the wording stays one.
 */
export type LengthUnit = 'characters' | 'bytes';

/** "Name must be 1 to 16 characters", "SSID must be 1 to 32 bytes", "Title must be at most 18 characters". */
export function lengthMessage(
  label: string,
  min: number,
  max: number,
  unit: LengthUnit = 'characters',
): string {
  if (min <= 0) return `${label} must be at most ${max} ${unit}`;
  if (min === max) return `${label} must be exactly ${max} ${unit}`;
  return `${label} must be ${min} to ${max} ${unit}`;
}

/** "Transmit power must be between 8 and 29". */
export const rangeMessage = (label: string, min: number, max: number): string =>
  `${label} must be between ${min} and ${max}`;

/** "Port must be an integer". */
export const integerMessage = (label: string): string => `${label} must be an integer`;

/** "Name must contain printable ASCII characters only". */
export const asciiMessage = (label: string): string =>
  `${label} must contain printable ASCII characters only`;

/** "Password must contain hexadecimal characters (0-9, a-f, A-F) only". */
export const hexMessage = (label: string): string =>
  `${label} must contain hexadecimal characters (0-9, a-f, A-F) only`;

/** "Device name cannot be empty". */
export const requiredMessage = (label: string): string => `${label} cannot be empty`;

/** "At most 32 wireless policies are allowed". */
export const maxCountMessage = (max: number, what: string): string => `At most ${max} ${what} are allowed`;

/** Number of code points (an emoji counts as one character). */
export const charLength = (value: string): number => [...value].length;

/** Number of UTF-8 bytes. */
export const byteLength = (value: string): number => new TextEncoder().encode(value).length;

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
export const isPrintableAscii = (value: string): boolean => PRINTABLE_ASCII.test(value);
export const isHex = (value: string): boolean => /^[0-9a-fA-F]*$/.test(value);

const INTEGER = /^[-+]?\d+$/;

/**
 * Reads an integer from a number or a string of decimal digits with an optional sign; NaN for
 * anything else. Every numeric rule of SPEC.md §5 is integer only, so "10.0", "8.5", "1e3", " 10"
 * and "" are not integers (lists such as "10-13" or "80;443" trim around their own separators).
 */
export function toInteger(value: number | string): number {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Number.NaN;
  return INTEGER.test(value) ? Number(value) : Number.NaN;
}
