import { Codes } from '../errors.ts';
import { type Check, invalid } from './result.ts';

/**
 * PostgreSQL text cannot hold U+0000 (the query fails, the API would answer 500), and no form field
 * has a use for it; so every string the API takes — body, query, path, upload file name — is
 * refused with 16 when it carries one, before any field's own rule runs.
 */
export const NUL_MESSAGE = 'Text cannot contain a NUL character';

export const hasNul = (value: string): boolean => value.includes('\u0000');

/** The path of the first string (or object key) holding a NUL, deep in `value`; null when none does. */
export function findNul(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'string') return hasNul(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (hasNul(key)) return [...path, key];
      const found = findNul(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** 16 with the field that holds a NUL, or null. */
export function validateNoNul(value: unknown): Check {
  const path = findNul(value);
  if (!path) return null;
  const field = path.join('.') || '_';
  return { ...invalid(Codes.FORM_DATA, NUL_MESSAGE), fields: { [field]: NUL_MESSAGE } };
}
