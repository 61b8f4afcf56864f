import { DEVICE_LIMITS } from './limits.ts';

/** UTF-8 size of a value as JSON text. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

export type Decoded = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * The first step for every message a device publishes, before its schema: a hostile device may send
 * anything. Refuses a payload over the packet limit, text that is not JSON, JSON nested deeper than
 * JSON_DEPTH (a recursive walk of it, ours or a library's, could overflow the stack) and any NUL
 * character in a string or a key: PostgreSQL refuses `\u0000` in text and jsonb, so it would fail the
 * write (of a whole batch) instead of being refused here.
 */
export function decodeDeviceJson(payload: Uint8Array | string): Decoded {
  const size = typeof payload === 'string' ? new TextEncoder().encode(payload).length : payload.length;
  if (size > DEVICE_LIMITS.MQTT_PACKET_BYTES) return { ok: false, reason: 'too large' };
  let value: unknown;
  try {
    value = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  // Iterative, so that the depth check itself cannot overflow the stack.
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return { ok: false, reason: 'NUL character' };
    } else if (v !== null && typeof v === 'object') {
      if (depth >= DEVICE_LIMITS.JSON_DEPTH) return { ok: false, reason: 'nested too deep' };
      if (Array.isArray(v)) for (const item of v) stack.push([item, depth + 1]);
      else
        for (const [k, item] of Object.entries(v)) {
          if (k.includes('\0')) return { ok: false, reason: 'NUL character' };
          stack.push([item, depth + 1]);
        }
    }
  }
  return { ok: true, value };
}
