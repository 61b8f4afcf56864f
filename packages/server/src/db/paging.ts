/** The row window of a 1-based page (PageQuery: page ≥ 1, pageSize ≤ 200). */
export function pageWindow(page: { page: number; pageSize: number }): { limit: number; offset: number } {
  return { limit: page.pageSize, offset: (page.page - 1) * page.pageSize };
}

/** A page of rows and the total of the same filter, queried side by side. */
export async function withTotal<T>(
  rows: PromiseLike<T[]>,
  counted: PromiseLike<{ n: number }[]>,
): Promise<{ rows: T[]; total: number }> {
  const [page, [count]] = await Promise.all([rows, counted]);
  return { rows: page, total: count.n };
}
