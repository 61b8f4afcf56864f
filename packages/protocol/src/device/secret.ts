/**
 * Per-device MQTT secrets. A device logs in with username = SN and password = its secret. Beacon
 * derives the secret from a factory key, HMAC-SHA256(factoryKey, sn), the way a manufacturer
 * provisions devices: the server can check any device's secret without a table of them, and the
 * simulator computes the same secret for the devices it runs. Uses Web Crypto, so it runs in Node
 * and in the browser.
 */
export async function deriveDeviceSecret(factoryKey: string, sn: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(factoryKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(sn)));
  return Array.from(mac.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The factory key used when none is configured (development and tests only). */
export const DEV_FACTORY_KEY = 'beacon-development-factory-key';
