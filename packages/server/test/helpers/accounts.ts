import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions.ts';
import { accounts } from '../../src/db/schema.ts';
import type { HttpClient, TestServer } from './harness.ts';

let counter = 0;

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  /** A client signed in as this account (cookie session). */
  client: HttpClient;
}

/** An email address no other test (in any file or run) uses; `tag` says which test made it. */
export function newEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${counter}-${process.pid}-${Date.now().toString(36)}@example.com`;
}

/**
 * Fixture: an account created straight in the database with a signed-in client. Use it to set
 * up other scenarios; the sign-up flow itself is tested over HTTP in auth.test.ts.
 */
export async function createAccount(
  server: TestServer,
  opts: { email?: string; password?: string; nick?: string } = {},
): Promise<TestAccount> {
  // Taken before any await: accounts created concurrently must not share a number.
  counter += 1;
  const n = counter;
  const email = opts.email ?? newEmail();
  const password = opts.password ?? 'secret-pass-1';
  const { db } = server.database;
  const passwordHash = await hash(password);
  const [row] = await db
    .insert(accounts)
    .values({
      account: email,
      email,
      nick: opts.nick ?? `user${n}`,
      passwordHash,
      cloudId: `T${n}X${Date.now().toString(36)}`.toUpperCase().slice(0, 16),
    })
    .returning({ id: accounts.id, passwordVersion: accounts.passwordVersion });
  const token = await createSession(db, server.config, server.clock.now(), {
    accountId: row.id,
    passwordVersion: row.passwordVersion,
    persistent: false,
  });
  const client = server.client();
  client.setCookie('token', token);
  return { id: row.id, email, password, client };
}

/**
 * A fresh session for the account's client at the server's clock: after the test moves the clock
 * past the session's lifetime (days, a year), the old session has expired, as it would for a user.
 */
export async function signInAgain(server: TestServer, account: TestAccount): Promise<void> {
  const [row] = await server.database.db
    .select({ passwordVersion: accounts.passwordVersion })
    .from(accounts)
    .where(eq(accounts.id, account.id));
  const token = await createSession(server.database.db, server.config, server.clock.now(), {
    accountId: account.id,
    passwordVersion: row.passwordVersion,
    persistent: false,
  });
  account.client.setCookie('token', token);
}

export async function accountId(server: TestServer, email: string): Promise<number | undefined> {
  const [row] = await server.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.account, email));
  return row?.id;
}
