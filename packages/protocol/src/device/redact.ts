/**
 * The one list of secret field names: what a device needs (admin password, PPPoE and RADIUS
 * passwords, Wi-Fi keys) and what grants access (remote-management tokens). Command history, audit
 * rows, logs and API views pass their values through redactSecrets.
 */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'password',
  'secret',
  'token',
  'deviceToken',
  'key',
  'psk',
  'passphrase',
]);

export const REDACTED = '********';

/**
 * A copy of `value` with every secret field's value replaced by REDACTED (`drop`: left out), at any
 * depth. An empty secret stays empty: it tells that none is set, not what it is.
 */
export function redactSecrets<T>(value: T, options: { drop?: boolean } = {}): T {
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, options)) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_KEYS.has(key)) {
      if (!options.drop) out[key] = v === '' || v == null ? v : REDACTED;
    } else {
      out[key] = redactSecrets(v, options);
    }
  }
  return out as T;
}
