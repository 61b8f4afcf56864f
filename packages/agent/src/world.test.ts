import { FrequencyBand } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { type AccessPoint, ClientWorld, type Station } from './world.ts';

/** The site's clients: blacklisted MACs never join an AP that refuses them; a kicked client stays away a while. */

function ap(sn: string, refused: Set<string>, events: string[]): AccessPoint {
  return {
    sn,
    bands: [FrequencyBand.B2G4, FrequencyBand.B5G],
    capacity: 100,
    ssids: () => ['Site'],
    onClient: (event, s: Station) => events.push(`${event}:${s.mac}`),
    refuses: (mac) => refused.has(mac.toUpperCase()),
  };
}

describe('client world', () => {
  it('keeps refused MACs off the AP, drops them when enforced, and holds a kicked client off', () => {
    const refused = new Set<string>();
    const events: string[] = [];
    const world = new ClientWorld({ site: 7, population: 10, onlineShare: 1, tickMs: 60_000 });
    world.register(ap('AP1', refused, events));
    let now = Date.now();
    const step = () => {
      now += 1000;
      world.tick(now);
    };
    for (let i = 0; i < 20; i++) step();
    const online = world.clientsOf('AP1');
    expect(online.length).toBe(10);

    // Blacklisted: dropped at once, and never back however long the world runs.
    const banned = online[0].mac.toUpperCase();
    refused.add(banned);
    expect(world.enforce('AP1')).toBe(1);
    expect(events).toContain(`left:${online[0].mac}`);
    for (let i = 0; i < 50; i++) step();
    expect(world.clientsOf('AP1').some((s) => s.mac.toUpperCase() === banned)).toBe(false);
    expect(world.clientsOf('AP1').length).toBe(9);

    // Kicked with a hold: away while it lasts (the others all came back meanwhile).
    const kicked = world.clientsOf('AP1')[0].mac;
    expect(world.kick('AP1', kicked, 3_600_000)).toBe(true);
    expect(world.kick('AP1', kicked)).toBe(false);
    for (let i = 0; i < 50; i++) world.tick(Date.now() + i * 1000);
    expect(world.clientsOf('AP1').some((s) => s.mac === kicked)).toBe(false);
    world.stop();
  });
});

describe('station MACs at fleet scale', () => {
  // ~2.5 s alone; the unit run shares the machine with every other suite (CI timed it out at 5 s).
  it('gives the stations of 10,000 sites of 20 distinct MACs, private ones locally administered', {
    timeout: 60_000,
  }, () => {
    const macs = new Set<string>();
    let stations = 0;
    let privates = 0;
    for (let site = 0; site < 10_000; site++) {
      const world = new ClientWorld({ site, population: 20, onlineShare: 1, tickMs: 60_000 });
      world.register(ap(`AP${site}`, new Set(), []));
      for (let t = 1; t <= 5; t++) world.tick(1_800_000_000_000 + t * 60_000);
      for (const s of world.clientsOf(`AP${site}`)) {
        stations++;
        macs.add(s.mac.toUpperCase());
        const first = Number.parseInt(s.mac.slice(0, 2), 16);
        if ((first & 0x02) !== 0) {
          privates++;
          expect(first & 0x01, s.mac).toBe(0);
        }
      }
    }
    expect(stations).toBeGreaterThan(150_000);
    // Phones, tablets and laptops (80 % of the mix) use private addresses.
    expect(privates / stations).toBeGreaterThan(0.7);
    // 24 random bits under a vendor OUI: 111 collided here.
    expect(stations - macs.size).toBeLessThan(30);
  });
});
