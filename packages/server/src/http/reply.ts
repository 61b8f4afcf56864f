/** Success envelope `{ code: 0, data }` (DESIGN.md API conventions). */
export function ok<T>(data: T): { code: 0; data: T } {
  return { code: 0, data };
}
