/**
 * The one shape of every form submit: mark busy, do the work, report a failure, clear busy.
 * No React here, so the rules are unit-tested (submit.test.ts); `useFormSubmit` binds it to a form.
 */

export type SubmitOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface SubmitHooks {
  /** Called with true before the work and with false after it, whatever happened. */
  setBusy(busy: boolean): void;
  /** Called once with what the work threw (shown to the user, put on the form's fields). */
  fail(error: unknown): void;
}

/** Runs `work` between setBusy(true) and setBusy(false); a throw goes to `fail`, never further. */
export async function submitting<T>(work: () => Promise<T>, hooks: SubmitHooks): Promise<SubmitOutcome<T>> {
  hooks.setBusy(true);
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    hooks.fail(error);
    return { ok: false, error };
  } finally {
    hooks.setBusy(false);
  }
}
