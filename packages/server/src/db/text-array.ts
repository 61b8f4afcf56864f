/**
 * Strings as one PostgreSQL array literal, for a single bind parameter cast `::text[]` (`col = any(…)`).
 * A list of values as an array, rather than a set-returning function such as
 * `jsonb_array_elements_text`, lets the planner see how many there are: with a handful it probes
 * the index instead of hashing a scan of the whole table (decision 0071). Every element is quoted,
 * so any text — commas, braces, quotes, backslashes, the word NULL — stays one element as it was.
 */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/(["\\])/g, '\\$1')}"`).join(',')}}`;
}
