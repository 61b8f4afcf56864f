import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

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

/**
 * `column = any($1::text[])`: the condition of Drizzle's `inArray` for strings, with the list as one
 * parameter. `inArray` binds and types every value on its own, which for the lists of a batch (500
 * serial numbers, 10,000 command ids of a bulk action) cost the server more than the statement cost
 * PostgreSQL.
 */
export function inTexts(column: AnyColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${textArray(values)}::text[])`;
}
