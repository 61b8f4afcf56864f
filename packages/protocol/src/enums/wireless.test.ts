import { describe, expect, it } from 'vitest';
import {
  allowedCiphers,
  Cipher,
  EncryptionMode,
  isCipherAllowed,
  requiresPassphrase,
  requiresRadius,
} from './wireless.ts';

describe('encryption modes and ciphers', () => {
  it('have the numbers of SPEC.md §9', () => {
    expect(Object.values(EncryptionMode)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(EncryptionMode.WPA2).toBe(8);
  });
  it('none has no cipher', () => {
    expect(allowedCiphers(EncryptionMode.NONE)).toEqual([]);
    expect(isCipherAllowed(EncryptionMode.NONE, Cipher.AES)).toBe(false);
  });
  it('WPA-PSK allows AES or TKIP only', () => {
    expect(isCipherAllowed(EncryptionMode.WPA_PSK, Cipher.AES)).toBe(true);
    expect(isCipherAllowed(EncryptionMode.WPA_PSK, Cipher.TKIP)).toBe(true);
    expect(isCipherAllowed(EncryptionMode.WPA_PSK, Cipher.TKIP_AES)).toBe(false);
  });
  it('WPA3 requires AES', () => {
    expect(allowedCiphers(EncryptionMode.WPA3_SAE)).toEqual([Cipher.AES]);
    expect(isCipherAllowed(EncryptionMode.WPA3_SAE_WPA2_PSK, Cipher.TKIP)).toBe(false);
  });
  it('unknown modes allow nothing', () => expect(allowedCiphers(99)).toEqual([]));
  it.each([
    [0, false, false],
    [1, true, false],
    [2, true, false],
    [3, true, false],
    [4, true, false],
    [5, false, false],
    [6, true, false],
    [7, false, true],
    [8, false, true],
  ])('mode %i: passphrase %s, radius %s', (mode, psk, radius) => {
    expect(requiresPassphrase(mode)).toBe(psk);
    expect(requiresRadius(mode)).toBe(radius);
  });
});
