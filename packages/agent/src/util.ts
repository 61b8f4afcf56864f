import { createHash } from 'node:crypto';

/** A small seeded PRNG (mulberry32), so a device's simulated world is reproducible from its SN. */
export type Rng = () => number;
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const seedOf = (text: string): number => createHash('sha256').update(text).digest().readUInt32LE(0);

export const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)];
export const between = (r: Rng, min: number, max: number): number => min + r() * (max - min);
export const intBetween = (r: Rng, min: number, max: number): number => Math.floor(between(r, min, max + 1));
export const clamp = (v: number, min: number, max: number): number => Math.min(max, Math.max(min, v));
export const round1 = (v: number): number => Math.round(v * 10) / 10;

/** Milliseconds of a SPEC.md §9 duration (seconds) under a time scale (0.01 → a 60 s reboot takes 0.6 s). */
export const scaledMs = (seconds: number, timeScale: number): number =>
  Math.max(1, Math.round(seconds * 1000 * timeScale));

export const sha256Hex = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex');

/** MAC address derived from the SN: Beacon's (locally administered) prefix 02:BE:AC, then 3 hashed bytes. */
export function macFromSn(sn: string): string {
  const h = createHash('sha256').update(`mac:${sn}`).digest();
  return [
    '02',
    'BE',
    'AC',
    ...[h[0], h[1], h[2]].map((b) => b.toString(16).padStart(2, '0').toUpperCase()),
  ].join(':');
}

/**
 * A station's MAC: the vendor's OUI and 24 random bits, or (`oui` null) a private address as phones,
 * tablets and laptops use by default (Wi-Fi MAC randomisation): 46 random bits with the locally
 * administered bit set. 24 bits under a dozen OUIs collided by the thousand in a fleet's one
 * project of 2,000,000 stations (bench/fleet at 100,000 APs), where two APs listing one MAC make it
 * roam between them at every telemetry; 46 bits do not (expected under 0.1 collision). The kinds
 * that keep a vendor OUI (a fifth of the mix) still collide a little at that size.
 */
export function randomMac(r: Rng, oui: string | null): string {
  if (oui === null) {
    const bytes = Array.from({ length: 6 }, () => intBetween(r, 0, 255));
    bytes[0] = (bytes[0] & 0xfc) | 0x02;
    return bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  }
  const tail = Array.from({ length: 3 }, () =>
    intBetween(r, 0, 255).toString(16).padStart(2, '0').toUpperCase(),
  );
  return `${oui}:${tail.join(':')}`;
}
