import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SECRET_KEYS } from '@beacon/protocol';

/**
 * Secrets that must reach devices (device admin password, PPPoE and RADIUS passwords, Wi-Fi keys)
 * are stored sealed: AES-256-GCM under BEACON_SECRET_KEY, each value with its own random nonce, as
 * `$sealed:v1:<base64url(nonce | ciphertext | tag)>`. Sealing walks a document and seals the value
 * of every field named in protocol SECRET_KEYS; opening does the reverse, just before a document is
 * sent to its device. A value already sealed is left as it is, so a sealed document can be copied.
 */

const PREFIX = '$sealed:v1:';

/** Used when BEACON_SECRET_KEY is not set (development and tests); the server warns at start. */
export const DEV_SECRET_KEY = 'beacon-development-secret-key';

export class Secrets {
  private readonly key: Buffer;

  /** Any string: the AES key is its SHA-256 (use 32 random bytes, e.g. `openssl rand -base64 32`). */
  constructor(secretKey: string) {
    this.key = createHash('sha256').update(secretKey, 'utf8').digest();
  }

  seal(plain: string): string {
    if (plain.startsWith(PREFIX)) return plain;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Throws when the value was sealed under another key or altered (GCM authentication). */
  open(value: string): string {
    if (!value.startsWith(PREFIX)) return value;
    const raw = Buffer.from(value.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
      'utf8',
    );
  }

  /** A copy of `value` with every non-empty secret field sealed, at any depth. */
  sealDocument<T>(value: T): T {
    return walk(value, (s) => this.seal(s));
  }

  openDocument<T>(value: T): T {
    return walk(value, (s) => this.open(s));
  }
}

export const isSealed = (value: unknown): boolean => typeof value === 'string' && value.startsWith(PREFIX);

function walk<T>(value: T, change: (secret: string) => string): T {
  if (Array.isArray(value)) return value.map((v) => walk(v, change)) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEYS.has(key) && typeof v === 'string' && v !== '' ? change(v) : walk(v, change);
  }
  return out as T;
}
