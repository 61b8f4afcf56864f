/** Whole minutes of a SPEC.md §9 duration, at least 1 (for "about N minutes"). */
export function minutes(seconds: number): number {
  return Math.max(1, Math.round(seconds / 60));
}
