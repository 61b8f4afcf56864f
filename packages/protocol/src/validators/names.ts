import { Codes } from '../errors.ts';
import {
  asciiMessage,
  byteLength,
  charLength,
  isPrintableAscii,
  lengthMessage,
  requiredMessage,
} from './messages.ts';
import { type Check, invalid } from './result.ts';

/**
 * An emoticon (emoji): a character shown as an emoji by default (😀, skin tones, flags' regional
 * indicators), or any character asked for as an emoji with the variation selector U+FE0F (❤️, ©️,
 * keycaps). Symbols that are text by default (©, ®, ™, ←) are not emoticons.
 */
const EMOJI = /\p{Emoji_Presentation}|\p{Regional_Indicator}|\uFE0F/u;
const WHITESPACE = /\s/u;

/** SPEC.md §5 "Names": 1 to 16 characters (code points), no spaces or emoticons. */
export function validateName(value: string, label = 'Name', max = 16): Check {
  const length = charLength(value);
  if (length < 1 || length > max) return invalid(Codes.FORM_DATA, lengthMessage(label, 1, max));
  if (WHITESPACE.test(value)) return invalid(Codes.FORM_DATA, `${label} cannot contain spaces`);
  if (EMOJI.test(value)) return invalid(Codes.FORM_DATA, `${label} cannot contain emoticons`);
  return null;
}

/** Project names follow the general name rule. */
export const validateProjectName = (value: string): Check => validateName(value, 'Project name');

/** SPEC.md §5: the fields that take 1 to 32 printable ASCII characters (space included). */
export function validateAsciiName(value: string, label = 'Name', max = 32): Check {
  if (!isPrintableAscii(value)) return invalid(Codes.FORM_DATA, asciiMessage(label));
  if (value.length < 1 || value.length > max) return invalid(Codes.FORM_DATA, lengthMessage(label, 1, max));
  return null;
}

export const DEVICE_NAME_MAX = 32;

/**
 * SPEC.md §5: device names and remarks follow the names rule in its second reading, 1 to 32
 * printable ASCII characters (space included), and cannot be empty (blank counts as empty).
 */
export function validateDeviceName(value: string, label = 'Device name'): Check {
  if (value.trim().length === 0) return invalid(Codes.FORM_DATA, requiredMessage(label));
  return validateAsciiName(value, label, DEVICE_NAME_MAX);
}
export const validateRemark = (value: string): Check => validateDeviceName(value, 'Remark');

const SERVER_NAME = /^[A-Za-z0-9@:\-_+.]+$/;
/** SPEC.md §5: a server name allows digits, letters and @ : - _ + . */
export function validateServerName(value: string, max = 64): Check {
  if (value.length < 1 || value.length > max)
    return invalid(Codes.FORM_DATA, lengthMessage('Server name', 1, max));
  if (!SERVER_NAME.test(value)) {
    return invalid(Codes.FORM_DATA, 'Server name can contain only digits, letters and @ : - _ + .');
  }
  return null;
}

/** SPEC.md §5: SSID, 1 to 32 bytes (UTF-8). */
export function validateSsid(value: string): Check {
  const bytes = byteLength(value);
  if (bytes < 1 || bytes > 32) return invalid(Codes.FORM_DATA, lengthMessage('SSID', 1, 32, 'bytes'));
  return null;
}

/**
 * SPEC.md §5: static route, port mapping and rule names are unique. `existing` holds the other items'
 * names (leave out the item being edited). Compared after trimming, case-sensitively.
 */
export function validateUniqueName(value: string, existing: readonly string[], label = 'Name'): Check {
  const name = value.trim();
  return existing.some((other) => other.trim() === name)
    ? invalid(Codes.NAME_TAKEN, `${label} "${name}" is already in use`)
    : null;
}

/** SPEC.md §5: reserved wireless policy names app_default_0 to app_default_3. */
export const RESERVED_POLICY_NAMES = [
  'app_default_0',
  'app_default_1',
  'app_default_2',
  'app_default_3',
] as const;
export const isReservedPolicyName = (value: string): boolean =>
  (RESERVED_POLICY_NAMES as readonly string[]).includes(value.trim().toLowerCase());

/** A wireless policy name: 1 to 32 characters, no spaces or emoticons, not reserved, unique if `existing` is given. */
export function validateWirelessPolicyName(value: string, existing: readonly string[] = []): Check {
  return (
    validateName(value, 'Policy name', 32) ??
    (isReservedPolicyName(value) ? invalid(Codes.NAME_RESERVED, `"${value}" is a reserved name`) : null) ??
    validateUniqueName(value, existing, 'Policy name')
  );
}
