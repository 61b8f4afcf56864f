import { Cipher, DEMO_PROJECT_IDS, EncryptionMode, FrequencyBand } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { DEMO_OWNER_ACCOUNT } from '../seed.ts';
import { seedDemoWifi } from './service.ts';

const BOTH = [FrequencyBand.B2G4, FrequencyBand.B5G];

/** A hotel's staff and guest networks in the WLAN demo; the home network of the mesh demo. */
export async function seedDemoWifiPolicies(deps: Deps): Promise<void> {
  const [owner] = await deps.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.account, DEMO_OWNER_ACCOUNT));
  if (!owner) return;
  const caller = { accountId: owner.id, account: DEMO_OWNER_ACCOUNT };
  await seedDemoWifi(deps, caller, DEMO_PROJECT_IDS.WLAN, [
    {
      name: 'staff',
      ssid: 'Demo-Staff',
      encryption: EncryptionMode.WPA2_PSK,
      cipher: Cipher.AES,
      password: 'demo-staff-2026',
      vlan: 10,
      // Staff and guests share the 128 clients a band allows (SPEC.md §9).
      maxClients: 48,
      bands: BOTH,
    },
    {
      name: 'guest',
      ssid: 'Demo-Guest',
      encryption: EncryptionMode.NONE,
      guest: true,
      guestRateKbps: 4096,
      clientIsolation: true,
      maxClients: 80,
      bands: BOTH,
      // Guests are offline overnight: the timer shutdown of SPEC.md §3.
      schedule: [{ start: '01:00', end: '06:00' }],
    },
  ]);
  await seedDemoWifi(deps, caller, DEMO_PROJECT_IDS.MESH, [
    {
      name: 'home',
      ssid: 'Demo-Home',
      encryption: EncryptionMode.WPA2_PSK,
      cipher: Cipher.AES,
      password: 'demo-home-2026',
      bands: BOTH,
    },
  ]);
}
