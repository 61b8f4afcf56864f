import { Codes } from '../errors.ts';
import { type Check, invalid } from './result.ts';

/**
 * PostgreSQL text cannot hold U+0000 (the query fails, the API would answer 500), and no form field
 * has a use for it; so every string the API takes — body, query, path, upload file name — is
 * refused with 16 when it carries one, before any field's own rule runs.
 */
export const NUL_MESSAGE = 'Text cannot contain a NUL character';

export const hasNul = (value: string): boolean => value.includes('\u0000');

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

const pathOf = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * The path of the first string (or object key) holding a NUL, deep in `value`; null when none does.
 * Walks with a stack of its own, not recursion: a body nested thousands deep is valid JSON.
 */
export function findNul(value: unknown): (string | number)[] | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const current = visit.value;
    if (typeof current === 'string') {
      if (hasNul(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        const child = { value: inner, key, parent: visit };
        if (hasNul(key)) return pathOf(child);
        stack.push(child);
      }
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
