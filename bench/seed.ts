import type pg from 'pg';

/**
 * An owner account and one project made straight in SQL, for the benchmarks that seed a database
 * without a server (bench/read-plans, bench/rollup). Answers their ids.
 */
export async function seedOwnerProject(
  pool: pg.Pool,
  account: string,
  projectName: string,
): Promise<{ accountId: number; projectId: number }> {
  const [{ id: accountId }] = (
    await pool.query(
      `insert into accounts (account, email, password_hash, cloud_id) values ($1, $2, 'x', 'c1') returning id`,
      [account, `${account}@example.com`],
    )
  ).rows;
  const [{ id: projectId }] = (
    await pool.query(
      `insert into projects (owner_id, name, scenario) values ($1, $2, 'hotel') returning id`,
      [accountId, projectName],
    )
  ).rows;
  return { accountId: Number(accountId), projectId: Number(projectId) };
}
