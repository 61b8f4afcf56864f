import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its default, OWASP-level costs. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a usable hash (unknown account, system account)
 * a throw-away hash is verified instead, so every failed login costs the same time.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  const target = storedHash?.startsWith('$argon2') ? storedHash : null;
  if (!target) {
    dummyHash ??= hash('beacon-timing-equaliser');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(target, password);
  } catch {
    return false;
  }
}
