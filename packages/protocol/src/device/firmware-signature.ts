import { Codes, type ErrorCode } from '../errors.ts';

/**
 * Firmware a device can trust (docs/decisions/0061). The server signs, with Ed25519, a statement
 * naming the image's model, version, size and SHA-256; the upgrade command carries the statement's
 * parts and the signature; the device downloads the image, checks its size and hash, and verifies the
 * signature with the public key it was built with. A wrong size, hash or signature is reported with
 * its code (FIRMWARE_CHECK_CODES) and the device stays on its firmware. Web Crypto: runs in Node
 * and in the browser.
 */

export interface FirmwareFacts {
  model: string;
  version: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

/** The exact bytes signed (UTF-8): four lines after the tag, no trailing newline. */
export const firmwareStatement = (f: FirmwareFacts): string =>
  `beacon-firmware-v1\n${f.model}\n${f.version}\n${f.size}\n${f.sha256}`;

/**
 * The development signing key (32-byte Ed25519 seed, hex): SHA-256 of
 * "beacon-development-firmware-key". Public: production sets BEACON_FIRMWARE_KEY.
 */
export const DEV_FIRMWARE_SEED = '2ad15c0d50dc5b0bf929e93288e96120b1c25e68d5efea65f808ee188c450e65';
/** Its public key (32 bytes, base64): what simulators and development devices are built with. */
export const DEV_FIRMWARE_PUBLIC_KEY = 'KwWgvkoM0mYMj6AKpy9cfEbgQhtYJdwpWnTbrDtzVbA=';

/** Codes a device answers for an image that fails its checks (reported in the upgrade-failed event). */
export const FIRMWARE_CHECK_CODES: Readonly<
  Record<'DOWNLOAD' | 'SIZE' | 'CHECKSUM' | 'SIGNATURE' | 'HEADER', ErrorCode>
> = {
  /** The image could not be downloaded. */
  DOWNLOAD: Codes.FIRMWARE_DOWNLOAD,
  /** The downloaded image's size differs from the command's `size`. */
  SIZE: Codes.FIRMWARE_SIZE,
  /** Its SHA-256 differs from the command's `sha256`. */
  CHECKSUM: Codes.FIRMWARE_CHECKSUM,
  /** The signature is missing or does not verify with the device's public key. */
  SIGNATURE: Codes.FIRMWARE_SIGNATURE,
  /** The image's header names another model or version than the command. */
  HEADER: Codes.FIRMWARE_HEADER,
};

const PKCS8_ED25519_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** Whether `seed` is a 32-byte Ed25519 seed in hex. */
export const isFirmwareSeed = (seed: string): boolean => /^[0-9a-f]{64}$/i.test(seed);

async function privateKey(seedHex: string, extractable = false) {
  if (!isFirmwareSeed(seedHex)) throw new Error('The firmware signing key must be 64 hex characters');
  const der = new Uint8Array([...PKCS8_ED25519_PREFIX, ...hexBytes(seedHex)]);
  return crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, extractable, ['sign']);
}

/** The public key (base64 of 32 bytes) of a signing seed. */
export async function firmwarePublicKey(seedHex: string): Promise<string> {
  const jwk = await crypto.subtle.exportKey('jwk', await privateKey(seedHex, true));
  return b64(unb64(jwk.x!.replace(/-/g, '+').replace(/_/g, '/').padEnd(44, '=')));
}

/** The signature (base64 of 64 bytes) of an image's statement. */
export async function signFirmware(seedHex: string, facts: FirmwareFacts): Promise<string> {
  const sig = await crypto.subtle.sign(
    { name: 'Ed25519' },
    await privateKey(seedHex),
    new TextEncoder().encode(firmwareStatement(facts)),
  );
  return b64(new Uint8Array(sig));
}

/** Whether `signature` is a valid signature of the statement under `publicKey` (base64). */
export async function verifyFirmware(
  publicKey: string,
  facts: FirmwareFacts,
  signature: string,
): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey('raw', unb64(publicKey), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    const sig = unb64(signature);
    if (sig.length !== 64) return false;
    return await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      sig,
      new TextEncoder().encode(firmwareStatement(facts)),
    );
  } catch {
    return false;
  }
}
