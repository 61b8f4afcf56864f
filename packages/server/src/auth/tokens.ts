import { createHash, randomBytes } from 'node:crypto';

/** Opaque secrets: 32 random bytes, base64url. Only their SHA-256 is stored. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
