import type { Check } from '@beacon/protocol';

/**
 * An antd form rule that runs a protocol validator (the same rule the server applies), showing its
 * message. `optional`: an empty field passes (the field may be left out).
 */
export function checkRule(check: (value: string) => Check, optional = false) {
  return {
    validator: (_: unknown, value: string | undefined) => {
      const text = value ?? '';
      if (optional && text.trim() === '') return Promise.resolve();
      const failure = check(text);
      return failure ? Promise.reject(new Error(failure.message)) : Promise.resolve();
    },
  };
}
