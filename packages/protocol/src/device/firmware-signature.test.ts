import { describe, expect, it } from 'vitest';
import {
  DEV_FIRMWARE_PUBLIC_KEY,
  DEV_FIRMWARE_SEED,
  firmwarePublicKey,
  firmwareStatement,
  signFirmware,
  verifyFirmware,
} from './firmware-signature.ts';
import { compareVersions, latestFirmware, MODEL_CATALOGUE } from './models.ts';

const facts = { model: 'BA-W1200C', version: '1.2.0', size: 4160, sha256: 'ab'.repeat(32) };

describe('firmware signatures', () => {
  it('the development public key is the seed’s', async () => {
    expect(await firmwarePublicKey(DEV_FIRMWARE_SEED)).toBe(DEV_FIRMWARE_PUBLIC_KEY);
  });

  it('the statement is exact (a published test vector)', async () => {
    expect(firmwareStatement(facts)).toBe(`beacon-firmware-v1\nBA-W1200C\n1.2.0\n4160\n${'ab'.repeat(32)}`);
    const sig = await signFirmware(DEV_FIRMWARE_SEED, facts);
    // Ed25519 is deterministic: the same statement and key give the same signature.
    expect(sig).toBe(await signFirmware(DEV_FIRMWARE_SEED, facts));
    expect(await verifyFirmware(DEV_FIRMWARE_PUBLIC_KEY, facts, sig)).toBe(true);
  });

  it('any changed fact, another key or a damaged signature fails', async () => {
    const sig = await signFirmware(DEV_FIRMWARE_SEED, facts);
    for (const changed of [
      { ...facts, model: 'BA-W1800X' },
      { ...facts, version: '1.3.0' },
      { ...facts, size: 4161 },
      { ...facts, sha256: 'cd'.repeat(32) },
    ])
      expect(await verifyFirmware(DEV_FIRMWARE_PUBLIC_KEY, changed, sig)).toBe(false);
    const other = await firmwarePublicKey('11'.repeat(32));
    expect(await verifyFirmware(other, facts, sig)).toBe(false);
    expect(await verifyFirmware(DEV_FIRMWARE_PUBLIC_KEY, facts, `A${sig.slice(1)}`)).toBe(false);
    expect(await verifyFirmware(DEV_FIRMWARE_PUBLIC_KEY, facts, 'not base64!')).toBe(false);
  });
});

describe('versions compare as semantic versions', () => {
  it.each([
    ['1.10.0', '1.9.0', 1],
    ['1.2', '1.2.0', 0],
    ['1.2.0-rc.1', '1.2.0', -1],
    ['1.2.0-alpha', '1.2.0-alpha.1', -1],
    ['1.2.0-alpha.1', '1.2.0-alpha.beta', -1],
    ['1.2.0-beta.2', '1.2.0-beta.11', -1],
    ['1.2.0-rc.1', '1.2.0-beta.11', 1],
    ['1.2.0+build.5', '1.2.0', 0],
    ['2.0.0', '10.0.0', -1],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
    expect(Math.sign(compareVersions(b, a))).toBe(-sign || 0);
  });

  it('the latest version of each model is the highest', () => {
    for (const m of MODEL_CATALOGUE)
      for (const v of m.firmware) expect(compareVersions(latestFirmware(m), v)).toBeGreaterThanOrEqual(0);
  });
});
