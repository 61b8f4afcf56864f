/**
 * bench/rf — the automatic RF plan (server src/rf/plan.ts, docs/decisions/0048) on simulated campuses.
 *
 *   npm run bench:rf -w @beacon/bench -- 100 1000 5000        (--runs 3 --seed 7)
 *
 * For each size N: a campus of N dual-band APs (packages/agent radio.ts campus(): buildings of two
 * floors with five APs a floor, 12 m apart, interior and exterior walls, other networks and a
 * microwave oven), every AP at 20 dBm on a channel picked as an unplanned AP does (2.4 GHz: 1, 6 or
 * 11; 5 GHz at 40 MHz: 36, 44, 149 or 157). Each AP's scan (the radio world's neighbour reports) is
 * the planner's input, as the server builds it (rf/run.ts planInput, country CN). Measured: the
 * plan's wall time and CPU time (median of --runs), then the plan is applied to the world and every
 * AP scans again: the co-channel interference score (rf/spectrum.ts: the neighbours each radio hears
 * on channels it shares, weighed by overlap and loudness) and the co-channel neighbour count, before
 * and after; and the channels a second run at once would move (anti-churn). Printed as JSON (paste
 * into RESULTS.md).
 */
import { campus, type RadioTuning } from '@beacon/agent';
import { FrequencyBand } from '@beacon/protocol';
import { planRf } from '../packages/server/src/rf/plan.ts';
import { planInput, type ReportingAp } from '../packages/server/src/rf/reports.ts';
import { coChannelCount, networkScore, type Scan } from '../packages/server/src/rf/spectrum.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const sizes = args.filter((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')).map(Number);
const runs = flag('runs', 3);
const seed = flag('seed', 7);

function median(list: number[]): number {
  const s = [...list].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function bench(n: number) {
  const site = campus({ aps: n, seed });
  const tunings = new Map<string, RadioTuning[]>();
  let r = seed;
  const rnd = () => {
    r = (r * 16807) % 2147483647;
    return r / 2147483647;
  };
  const sns: string[] = [];
  for (let i = 0; i < n; i++) {
    const sn = `BENCHAP${String(i).padStart(9, '0')}`;
    sns.push(sn);
    tunings.set(sn, [
      { band: FrequencyBand.B2G4, channel: [1, 6, 11][Math.floor(rnd() * 3)]!, width: 20, power: 20 },
      { band: FrequencyBand.B5G, channel: [36, 44, 149, 157][Math.floor(rnd() * 4)]!, width: 40, power: 20 },
    ]);
    const hex = i.toString(16).padStart(6, '0');
    site.world.register({
      sn,
      mac: `02:BE:AC:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`.toUpperCase(),
      position: site.positions[i]!,
      radios: () => tunings.get(sn)!,
    });
  }
  // The APs as the server sees them: their latest telemetry's radios (with the scans).
  const members = () =>
    sns.map(
      (sn) =>
        ({
          row: {
            sn,
            telemetry: {
              radios: tunings.get(sn)!.map((t) => ({
                ...t,
                noise: site.world.noiseAt(sn, t),
                utilisation: site.world.busyAt(sn, t),
                clients: 5,
                neighbours: site.world.scan(sn, t.band),
              })),
            },
          },
          info: { bands: [FrequencyBand.B2G4, FrequencyBand.B5G] },
          name: sn,
        }) as ReportingAp,
    );
  const scans = (list: ReportingAp[]): Scan[] =>
    list.flatMap((m) =>
      (
        (m.row.telemetry as { radios: (RadioTuning & { neighbours: Scan['neighbours'] })[] }).radios ?? []
      ).map((t) => ({ channel: t.channel, width: t.width, neighbours: t.neighbours })),
    );
  const before = members();
  const input = planInput(before, 'CN');
  const wall: number[] = [];
  const cpu: number[] = [];
  let plan = planRf(input, { seed: 1 });
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    plan = planRf(input, { seed: 1 });
    wall.push(performance.now() - t);
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
  }
  for (const p of plan.radios) {
    const [sn, band] = p.id.split('/');
    const t = tunings.get(sn!)!.find((x) => x.band === band)!;
    t.channel = p.channel;
    t.power = p.power;
  }
  const after = members();
  // Anti-churn: a second run at once (another seed, the scans after the first plan) should move
  // (almost) no channel (decision 0048).
  const again = planRf(planInput(after, 'CN'), { seed: 2 });
  const sb = networkScore(scans(before));
  const sa = networkScore(scans(after));
  const count = (list: Scan[]) => list.reduce((a, s) => a + coChannelCount(s), 0);
  return {
    aps: n,
    radios: input.length,
    neighboursPerRadio:
      Math.round((input.reduce((a, x) => a + x.neighbours.length, 0) / input.length) * 10) / 10,
    planMs: Math.round(median(wall)),
    planCpuMs: Math.round(median(cpu)),
    scoreBefore: Math.round(sb),
    scoreAfter: Math.round(sa),
    reduction: `${Math.round((1 - sa / sb) * 1000) / 10} %`,
    coChannelBefore: count(scans(before)),
    coChannelAfter: count(scans(after)),
    channelsChanged: plan.radios.filter((x) => x.channelChanged).length,
    powersChanged: plan.radios.filter((x) => x.powerChanged).length,
    secondRunChannelsChanged: again.radios.filter((x) => x.channelChanged).length,
    bands: plan.bands,
  };
}

const results = (sizes.length ? sizes : [100, 1000, 5000]).map(bench);
console.log(JSON.stringify({ date: new Date().toISOString(), runs, seed, results }, null, 2));
