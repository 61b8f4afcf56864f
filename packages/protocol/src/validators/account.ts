import { Codes } from '../errors.ts';
import { validateName } from './names.ts';
import { type Check, invalid } from './result.ts';

export const ACCOUNT_PASSWORD_MIN = 6;
export const ACCOUNT_PASSWORD_MAX = 32;

/** SPEC.md §5: account password 6 to 32 characters. */
export function validateAccountPassword(value: string): Check {
  const length = [...value].length;
  if (length < ACCOUNT_PASSWORD_MIN || length > ACCOUNT_PASSWORD_MAX) {
    return invalid(
      Codes.PASSWORD,
      `The password must be ${ACCOUNT_PASSWORD_MIN} to ${ACCOUNT_PASSWORD_MAX} characters`,
    );
  }
  return null;
}

/** SPEC.md §5: the confirmation must match ("Inconsistent passwords"). */
export function validatePasswordConfirmation(password: string, confirmation: string): Check {
  return password === confirmation ? null : invalid(Codes.INCONSISTENT_PASSWORDS, 'Inconsistent passwords');
}

/** SPEC.md §5: email code is 6 digits. */
export function validateEmailCode(value: string): Check {
  return /^\d{6}$/.test(value) ? null : invalid(Codes.VERIFICATION, 'The email code must be 6 digits');
}

/** SPEC.md §5: SMS code is 4 digits. */
export function validateSmsCode(value: string): Check {
  return /^\d{4}$/.test(value) ? null : invalid(Codes.VERIFICATION, 'The SMS code must be 4 digits');
}

/** A nickname, at sign-up and on the profile alike: the names rule, up to 32 characters. */
export const validateNickname = (value: string): Check => validateName(value, 'Nickname', 32);

/** The login account: empty answers 4 (SPEC.md §8 "account empty"), as sign-up's email does. */
export function validateLoginAccount(value: string): Check {
  if (value.length === 0) return invalid(Codes.ACCOUNT_EMPTY, 'Account cannot be empty');
  if (value.length > 254) return invalid(Codes.FORM_DATA, 'The account is too long');
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export function validateEmail(value: string): Check {
  if (value.length === 0) return invalid(Codes.ACCOUNT_EMPTY, 'Account cannot be empty');
  if (value.length > 254 || !EMAIL.test(value))
    return invalid(Codes.FORM_DATA, 'Enter a valid email address');
  return null;
}
