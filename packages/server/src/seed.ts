import { DEFAULT_TIME_ZONE, DEMO_PROJECT_IDS, NetMode } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { accounts, projects } from './db/schema.ts';

export const DEMO_OWNER_ACCOUNT = 'demo@beacon.local';

/** The two demo projects of SPEC.md §1, owned by a system account that cannot log in. */
export async function seedDemoProjects(database: Database): Promise<void> {
  const { db } = database;
  await db
    .insert(accounts)
    .values({
      account: DEMO_OWNER_ACCOUNT,
      email: DEMO_OWNER_ACCOUNT,
      nick: 'Beacon demo',
      // Not an argon2 hash, so no password ever matches it.
      passwordHash: '!',
      cloudId: 'DEMO000000',
      isSystem: true,
    })
    .onConflictDoNothing();
  const [owner] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`${accounts.account} = ${DEMO_OWNER_ACCOUNT}`);
  await db
    .insert(projects)
    .values([
      {
        id: DEMO_PROJECT_IDS.WLAN,
        ownerId: owner.id,
        name: 'Demo-WLAN',
        netMode: NetMode.WLAN,
        scenario: 'hotel',
        location: 'Shenzhen, China',
        address: '1 Demo Road',
        timeZone: DEFAULT_TIME_ZONE,
        isDemo: true,
      },
      {
        id: DEMO_PROJECT_IDS.MESH,
        ownerId: owner.id,
        name: 'Demo-Mesh',
        netMode: NetMode.MESH,
        scenario: 'smart_home',
        location: 'Shenzhen, China',
        address: '2 Demo Road',
        timeZone: DEFAULT_TIME_ZONE,
        isDemo: true,
      },
    ])
    .onConflictDoNothing();
}
