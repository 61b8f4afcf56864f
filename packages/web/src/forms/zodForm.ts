import type { FormInstance } from 'antd';
import type { z } from 'zod';
import { isApiError } from '../api/client.ts';

/** Field name → first issue message, from a zod error (the same validator the server runs). */
export function issuesToFields(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** Shows field messages on an antd form; unknown field names are ignored. */
export function showFieldErrors(form: FormInstance, fields: Record<string, string>): boolean {
  // The store holds only fields with a value; an empty optional field is still a field of the form.
  const known = new Set([
    ...Object.keys(form.getFieldsValue(true) ?? {}),
    ...Object.keys(form.getFieldsValue() ?? {}),
  ]);
  const entries = Object.entries(fields).filter(([name]) => known.has(name));
  if (entries.length > 0) form.setFields(entries.map(([name, message]) => ({ name, errors: [message] })));
  return entries.length > 0;
}

/** Runs `schema.safeParse`; on failure puts the issue messages on the fields and answers null. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  values: unknown,
  form: FormInstance,
): z.output<S> | null {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  showFieldErrors(form, issuesToFields(result.error));
  return null;
}

/** Puts server-side field errors on the form (the toast with the message is shown globally). */
export function applyServerError(form: FormInstance, error: unknown): void {
  if (isApiError(error) && Object.keys(error.fields).length > 0) showFieldErrors(form, error.fields);
}

/** Replaces undefined form values by '' so zod reports the rule, not "expected string". */
export function blanks<T extends Record<string, unknown>>(values: T, keys: string[]): T {
  const out: Record<string, unknown> = { ...values };
  for (const k of keys) if (out[k] === undefined || out[k] === null) out[k] = '';
  return out as T;
}
