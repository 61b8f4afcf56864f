/** SPEC.md §9 encryption modes. */
export const EncryptionMode = {
  NONE: 0,
  WPA_PSK: 1,
  WPA2_PSK: 2,
  WPA3_SAE: 3,
  WPA3_SAE_WPA2_PSK: 4,
  OTHER: 5,
  WPA_WPA2_PSK: 6,
  /** WPA enterprise (RADIUS). */
  WPA: 7,
  /** WPA2 enterprise (RADIUS). */
  WPA2: 8,
} as const;
export type EncryptionMode = (typeof EncryptionMode)[keyof typeof EncryptionMode];

export const Cipher = { AES: 'aes', TKIP: 'tkip', TKIP_AES: 'tkip+aes' } as const;
export type Cipher = (typeof Cipher)[keyof typeof Cipher];

/**
 * Which cipher each mode allows. SPEC.md §9: none has no cipher; WPA-PSK allows AES or TKIP. The rest
 * follow the Wi-Fi Alliance rules: WPA3 (SAE, also in transition with WPA2) requires AES (CCMP);
 * WPA2 allows AES or the TKIP+AES mix (TKIP alone is deprecated for WPA2); the WPA/WPA2 mixed mode
 * allows all three; "other" is a device-defined mode we do not restrict.
 */
export const ENCRYPTION_CIPHERS: Readonly<Record<EncryptionMode, readonly Cipher[]>> = {
  [EncryptionMode.NONE]: [],
  [EncryptionMode.WPA_PSK]: [Cipher.AES, Cipher.TKIP],
  [EncryptionMode.WPA2_PSK]: [Cipher.AES, Cipher.TKIP_AES],
  [EncryptionMode.WPA3_SAE]: [Cipher.AES],
  [EncryptionMode.WPA3_SAE_WPA2_PSK]: [Cipher.AES],
  [EncryptionMode.OTHER]: [Cipher.AES, Cipher.TKIP, Cipher.TKIP_AES],
  [EncryptionMode.WPA_WPA2_PSK]: [Cipher.AES, Cipher.TKIP, Cipher.TKIP_AES],
  [EncryptionMode.WPA]: [Cipher.AES, Cipher.TKIP],
  [EncryptionMode.WPA2]: [Cipher.AES, Cipher.TKIP_AES],
};

export const allowedCiphers = (mode: number): readonly Cipher[] =>
  ENCRYPTION_CIPHERS[mode as EncryptionMode] ?? [];
export const isCipherAllowed = (mode: number, cipher: string): boolean =>
  allowedCiphers(mode).includes(cipher as Cipher);

/** Modes that take a pre-shared key (the Wi-Fi password rule applies). */
export const requiresPassphrase = (mode: number): boolean =>
  mode === EncryptionMode.WPA_PSK ||
  mode === EncryptionMode.WPA2_PSK ||
  mode === EncryptionMode.WPA3_SAE ||
  mode === EncryptionMode.WPA3_SAE_WPA2_PSK ||
  mode === EncryptionMode.WPA_WPA2_PSK;

/** Enterprise modes that need a RADIUS server (ip, port, password). */
export const requiresRadius = (mode: number): boolean =>
  mode === EncryptionMode.WPA || mode === EncryptionMode.WPA2;

/** SPEC.md §3 frequency bands. */
export const FrequencyBand = { B2G4: '2.4G', B5G: '5G', B5G1: '5G-1', B5G2: '5G-2' } as const;
export type FrequencyBand = (typeof FrequencyBand)[keyof typeof FrequencyBand];

/** SPEC.md §3 Wi-Fi sync state. */
export const WifiSyncState = { NOT_CONFIGURED: 0, CONFIGURED: 1 } as const;
export type WifiSyncState = (typeof WifiSyncState)[keyof typeof WifiSyncState];

/** SPEC.md §4 radio optimisation state of a device. */
export const RadioOptimiseState = { NOT_OPTIMISED: 0, OPTIMISED: 1 } as const;
export type RadioOptimiseState = (typeof RadioOptimiseState)[keyof typeof RadioOptimiseState];

/**
 * SPEC.md §4: an optimisation run goes with a percentage, then completes or times out; a scheduled
 * run that could not start (fewer than 2 online devices, another run going) is recorded as skipped.
 */
export const RfRunState = {
  RUNNING: 'running',
  COMPLETED: 'completed',
  TIMED_OUT: 'timed_out',
  SKIPPED: 'skipped',
} as const;
export type RfRunState = (typeof RfRunState)[keyof typeof RfRunState];

/** SPEC.md §1 and §3: RF optimisation kinds and record types. */
export const RfMode = { MANUAL: 'manual', AUTO: 'auto', SCHEDULED: 'scheduled' } as const;
export type RfMode = (typeof RfMode)[keyof typeof RfMode];
