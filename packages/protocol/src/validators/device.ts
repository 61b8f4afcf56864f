import { isBusyStatus } from '../enums/device.ts';
import { EncryptionMode } from '../enums/wireless.ts';
import { Codes } from '../errors.ts';
import { asciiMessage, hexMessage, isHex, isPrintableAscii, lengthMessage } from './messages.ts';
import { type Check, invalid } from './result.ts';

/**
 * SPEC.md §5 Wi-Fi password: 8 to 63 printable ASCII characters, or 8 to 64 hexadecimal characters
 * (a 64-character key must be hexadecimal). With encryption "none" no password is needed.
 */
export function validateWifiPassword(value: string, mode?: number): Check {
  if (mode === EncryptionMode.NONE) return null;
  const length = value.length;
  if (length === 64)
    return isHex(value) ? null : invalid(Codes.PASSWORD, hexMessage('A 64-character password'));
  if (!isPrintableAscii(value)) return invalid(Codes.PASSWORD, asciiMessage('Password'));
  if (length < 8 || length > 63) {
    return invalid(Codes.PASSWORD, `${lengthMessage('Password', 8, 63)}, or 64 hexadecimal characters`);
  }
  return null;
}

/** The special characters a device password may use. */
export const DEVICE_PASSWORD_SPECIALS = '!#$%&*+,-.:;=@^_';
const SPECIAL = /[!#$%&*+,\-.:;=@^_]/;
const DEVICE_PASSWORD_CHARS = /^[A-Za-z0-9!#$%&*+,\-.:;=@^_]*$/;

/**
 * SPEC.md §5 device password: at least 8 characters and at least three of uppercase, lowercase,
 * digits and the specials !#$%&*+,-.:;=@^_ (no other characters).
 */
export function validateDevicePassword(value: string): Check {
  if (value.length < 8) return invalid(Codes.PASSWORD, 'The password must be at least 8 characters');
  if (!DEVICE_PASSWORD_CHARS.test(value)) {
    return invalid(
      Codes.PASSWORD,
      `The password can contain only letters, digits and the special characters ${DEVICE_PASSWORD_SPECIALS}`,
    );
  }
  const classes = [/[A-Z]/, /[a-z]/, /\d/, SPECIAL].filter((re) => re.test(value)).length;
  if (classes < 3) {
    return invalid(
      Codes.PASSWORD,
      'The password must contain at least three of: uppercase letters, lowercase letters, digits, special characters',
    );
  }
  return null;
}

/** SPEC.md §5: serial number, 16 to 32 letters or digits. */
export function validateSn(value: string): Check {
  if (!/^[A-Za-z0-9]*$/.test(value))
    return invalid(Codes.FORM_DATA, 'Serial number can contain only letters and digits');
  if (value.length < 16 || value.length > 32)
    return invalid(Codes.FORM_DATA, lengthMessage('Serial number', 16, 32));
  return null;
}

/** SPEC.md §5: a device must be selected. */
export const validateDeviceSelected = (count: number): Check =>
  count >= 1 ? null : invalid(Codes.FORM_DATA, 'Select a device');

/** SPEC.md §5: an AP must be selected. */
export const validateApSelected = (count: number): Check =>
  count >= 1 ? null : invalid(Codes.FORM_DATA, 'Select an AP');

/** SPEC.md §5: at least two devices must be selected. */
export const validateAtLeastTwoDevices = (count: number): Check =>
  count >= 2 ? null : invalid(Codes.FORM_DATA, 'Select at least two devices');

/**
 * SPEC.md §5: at least one day must be chosen for a scheduled reboot. Days are 0 (Sunday) to 6
 * (Saturday), each at most once.
 */
export function validateRebootDays(days: readonly number[]): Check {
  if (days.length === 0) return invalid(Codes.FORM_DATA, 'Choose at least one day');
  if (days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
    return invalid(Codes.FORM_DATA, 'Days must be 0 (Sunday) to 6 (Saturday)');
  }
  if (new Set(days).size !== days.length) return invalid(Codes.FORM_DATA, 'Each day can be chosen only once');
  return null;
}

/** SPEC.md §4: restart, reset and upgrade are blocked while the device is restarting or upgrading. */
export const validateDeviceNotBusy = (status: number): Check =>
  isBusyStatus(status)
    ? invalid(Codes.DEVICE_BUSY, 'The device is rebooting or upgrading, try again later')
    : null;
