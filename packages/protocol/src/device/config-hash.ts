/**
 * The hash of a configuration document, as the device reports it (state `configHash`) and the
 * server stores it with each revision: SHA-256 of its canonical JSON (object keys sorted at every
 * depth, no spaces), lowercase hex. The same document always hashes the same, whoever wrote it, so
 * a device that runs something else than its revision says (drift) is seen. Web Crypto: Node and
 * browsers alike.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export async function configHash(document: unknown): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(document))),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const CONFIG_HASH_PATTERN = /^[0-9a-f]{64}$/;
