import type { FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import { errorText, showError } from '../state/feedback.ts';
import { type SubmitOutcome, submitting } from './submit.ts';
import { applyServerError } from './zodForm.ts';

/** Shows a failure as a toast (and last-error line) and, given a form, on its fields. */
export function reportFailure(error: unknown, form?: FormInstance): void {
  showError(errorText(error));
  if (form) applyServerError(form, error);
}

/**
 * `busy` for the submit button and `run(work)`: busy while `work` runs; a failure is shown
 * (toast, and the server's field messages on `form`) and answered as `{ ok: false }`.
 */
export function useFormSubmit(form?: FormInstance): {
  busy: boolean;
  run: <T>(work: () => Promise<T>) => Promise<SubmitOutcome<T>>;
} {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    <T>(work: () => Promise<T>) => submitting(work, { setBusy, fail: (e) => reportFailure(e, form) }),
    [form],
  );
  return { busy, run };
}
