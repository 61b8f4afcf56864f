import { DEVICE_LIMITS } from './limits.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 size of a value as JSON text. */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).length;
}

export type Decoded = { ok: true; value: unknown } | { ok: false; reason: string };

/** Deepest nesting of objects and arrays in JSON text (strings skipped). */
function nesting(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/**
 * The first step for every message a device publishes, before its schema: a hostile device may send
 * anything. Refuses a payload over the packet limit, text that is not JSON, JSON nested deeper than
 * JSON_DEPTH (a recursive walk of it — JSON.stringify of an event's data, a schema — could overflow
 * the stack) and any NUL character: PostgreSQL refuses `\u0000` in text and jsonb, so it would fail the
 * write (of a whole batch) instead of being refused here. JSON cannot hold a raw NUL, so the escape
 * is the only way one gets in (a literal backslash before "u0000" is refused as well: no device
 * needs it). This runs for every message, so it scans the text once instead of walking the value.
 */
export function decodeDeviceJson(payload: Uint8Array | string): Decoded {
  if (typeof payload !== 'string' && payload.length > DEVICE_LIMITS.MQTT_PACKET_BYTES) {
    return { ok: false, reason: 'too large' };
  }
  const text = typeof payload === 'string' ? payload : decoder.decode(payload);
  // A UTF-16 unit is at most 3 UTF-8 bytes: encode only when the text may be over the limit.
  if (typeof payload === 'string' && text.length * 3 > DEVICE_LIMITS.MQTT_PACKET_BYTES) {
    if (encoder.encode(text).length > DEVICE_LIMITS.MQTT_PACKET_BYTES)
      return { ok: false, reason: 'too large' };
  }
  if (text.includes('\\u0000')) return { ok: false, reason: 'NUL character' };
  if (nesting(text, DEVICE_LIMITS.JSON_DEPTH) > DEVICE_LIMITS.JSON_DEPTH)
    return { ok: false, reason: 'nested too deep' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}
