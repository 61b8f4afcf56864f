import type { z } from 'zod';
import { AppError, Codes, type Failure } from '../errors.ts';
import type { Check } from './result.ts';

/** Attaches a §5 validator to a zod schema; the failure's catalogue code travels in `params.code`. */
export function checked<T extends z.ZodType>(schema: T, check: (value: z.output<T>) => Check): T {
  return schema.superRefine((value, ctx) => {
    const failure = check(value as z.output<T>);
    if (failure) ctx.addIssue({ code: 'custom', message: failure.message, params: { code: failure.code } });
  }) as unknown as T;
}

/**
 * Turns a zod error into the one Failure the API answers with: the code of the first issue that
 * carries one (else 16, form data) and a field → message map for the form.
 */
export function failureFromZod(error: z.ZodError): Failure {
  const fields: Record<string, string> = {};
  let code: Failure['code'] = Codes.FORM_DATA;
  let message: string | undefined;
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '_';
    // A field the API does not know (a strict body): named, so the caller sees which one.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const at = [...issue.path, key].join('.');
        if (!(at in fields)) fields[at] = 'Unknown field';
      }
    } else if (!(path in fields)) fields[path] = issue.message;
    const issueCode = (issue as { params?: { code?: number } }).params?.code;
    if (message === undefined) {
      message = issue.message;
      if (typeof issueCode === 'number') code = issueCode as Failure['code'];
    }
  }
  return { code, message: message ?? 'Form data error', fields };
}

/** Parses `input` or throws the AppError the API answers with (failureFromZod). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const failure = failureFromZod(result.error);
  throw new AppError(failure.code, failure.message, failure.fields);
}
