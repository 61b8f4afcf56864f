import type { Mask } from '@beacon/protocol';

/** A mask typed as a prefix ("24") or dotted ("255.255.255.0"): a prefix becomes a number. */
export function maskOf(text: string | undefined): Mask | undefined {
  const v = (text ?? '').trim();
  if (v === '') return undefined;
  return /^\d{1,2}$/.test(v) ? Number(v) : v;
}

export const maskText = (mask: Mask | undefined): string => (mask === undefined ? '' : String(mask));

/** Blank-free DNS list from two fields. */
export const dnsOf = (a?: string, b?: string): string[] =>
  [a, b].map((s) => (s ?? '').trim()).filter(Boolean);

export const blankToUndefined = (s: string | undefined): string | undefined => {
  const v = (s ?? '').trim();
  return v === '' ? undefined : v;
};
