import { RF_PLAN } from '@beacon/protocol';
import { overlapOf, type Tuning, tuningId, units, unitsToDbm } from './spectrum.ts';

/**
 * The automatic RF plan (SPEC.md §1 RF optimisation; docs/decisions/0048): a channel and a transmit
 * power for every radio, from what the APs report of their scans. Pure and deterministic (a seeded
 * random walk), so tests and bench/rf run it without a server.
 *
 * 1. Path loss of every pair of our radios from the scans: the neighbour's power minus the RSSI it
 *    is heard at (both directions averaged).
 * 2. Transmit power control (Cisco TPC): each radio's power so that its third loudest neighbour hears
 *    it at −70 dBm (fewer than three neighbours: its highest power), changed only when the change is
 *    at least 3 dB (hysteresis), within 8–29 dBm and the country's limit.
 * 3. Channels: the cost of a radio on a channel is the interference it would take, every neighbour's
 *    signal (at its planned power) weighed by channel overlap (spectrum.ts: hostapd's 0.85 and 0.55
 *    for adjacent 2.4 GHz channels), plus other networks and the noise it reports, weighed up by its
 *    client load and utilisation. A DSATUR colouring of the neighbour graph gives the start; a
 *    simulated annealing over single-radio moves, then a greedy descent, lowers the total cost.
 * 4. Anti-churn (Cisco DCA sensitivity): the new channels of a band are kept only if the worst radio
 *    of that band (the one taking the most interference) improves by at least 5 dB; else that band
 *    keeps its channels. Power changes stand on their own hysteresis.
 */

export interface PlanNeighbour extends Tuning {
  /** The id of the radio heard when it is one of ours (in the plan), else null (another network). */
  id: string | null;
  rssi: number;
}

export interface PlanRadio extends Tuning {
  /** Unique, e.g. "SN/5G". */
  id: string;
  power: number;
  /** Noise floor the radio reports on its channel (dBm). */
  noise: number;
  /** Channel utilisation (%) and associated clients: load that makes interference cost more. */
  utilisation: number;
  clients: number;
  /** Channels the plan may give it (country, band and width: protocol planChannels). */
  candidates: readonly number[];
  minPower: number;
  maxPower: number;
  /** The country's power limit on a channel (protocol maxPowerFor); absent: maxPower everywhere. */
  limit?: (channel: number) => number;
  neighbours: readonly PlanNeighbour[];
}

export interface PlanOptions {
  seed?: number;
  /** Annealing moves per radio (default 40). */
  movesPerRadio?: number;
  /** Stop the search after this many ms (the plan so far is used). */
  budgetMs?: number;
  tpcThreshold?: number;
  tpcHysteresis?: number;
  margin?: number;
}

export interface RadioPlan extends Tuning {
  id: string;
  power: number;
  channelChanged: boolean;
  powerChanged: boolean;
}

export interface BandOutcome {
  /** Interference taken by the worst radio (dBm), now and with the planned channels. */
  worstBefore: number;
  worstAfter: number;
  /** Whether the band's new channels are kept (worst improved by the margin). */
  applied: boolean;
}

export interface PlanResult {
  radios: RadioPlan[];
  bands: { '2.4': BandOutcome | null; '5': BandOutcome | null };
  /** Whether anything changes. */
  changed: boolean;
  /** Cost (load-weighted interference, units) with the current channels and with the plan's, both at the planned powers. */
  costBefore: number;
  costAfter: number;
  ms: number;
}

interface Link {
  to: number;
  /** Path loss in dB. */
  pl: number;
}

interface Foreign {
  /** Tuning id (spectrum.ts). */
  id: number;
  rssi: number;
}

/** mulberry32: a small seeded generator, so a plan is the same for the same input. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Transmit power control for one radio: the power its third loudest neighbour hears it at −70 dBm. */
export function tpcPower(
  power: number,
  heardAt: readonly number[],
  limits: { min: number; max: number },
  threshold: number = RF_PLAN.TPC_THRESHOLD,
  hysteresis: number = RF_PLAN.TPC_HYSTERESIS,
): number {
  const loud = [...heardAt].sort((a, b) => b - a);
  const target =
    loud.length < 3 ? limits.max : clamp(Math.round(power + threshold - loud[2]!), limits.min, limits.max);
  const current = clamp(power, limits.min, limits.max);
  return Math.abs(target - current) >= hysteresis || current !== power ? target : current;
}

export function planRf(radios: readonly PlanRadio[], options: PlanOptions = {}): PlanResult {
  const started = performance.now();
  const n = radios.length;
  const index = new Map(radios.map((r, i) => [r.id, i]));
  const rnd = random(options.seed ?? 1);

  // 1. Links between our radios (path loss), and the other networks each radio hears.
  const losses = new Map<number, number[]>();
  const foreign: Foreign[][] = radios.map(() => []);
  for (const [a, r] of radios.entries()) {
    for (const nb of r.neighbours) {
      const b = nb.id === null ? undefined : index.get(nb.id);
      if (b === undefined || b === a) {
        foreign[a]!.push({ id: tuningId(nb), rssi: nb.rssi });
        continue;
      }
      const key = Math.min(a, b) * n + Math.max(a, b);
      const list = losses.get(key) ?? [];
      list.push(radios[b]!.power - nb.rssi);
      losses.set(key, list);
    }
  }
  const links: Link[][] = radios.map(() => []);
  for (const [key, list] of losses) {
    const a = Math.floor(key / n);
    const b = key % n;
    const pl = list.reduce((x, y) => x + y, 0) / list.length;
    links[a]!.push({ to: b, pl });
    links[b]!.push({ to: a, pl });
  }

  // 2. Transmit power control.
  const power = radios.map((r, a) =>
    tpcPower(
      r.power,
      links[a]!.map((l) => r.power - l.pl),
      { min: r.minPower, max: r.maxPower },
      options.tpcThreshold,
      options.tpcHysteresis,
    ),
  );

  // 3. Channels. Each radio's choices (as tuning ids, spectrum.ts), the interference it takes from
  // other networks and noise on each, and its neighbours' signals at the planned powers.
  const width = radios.map((r) => r.width);
  const choices = radios.map((r) => (r.candidates.length ? [...r.candidates] : [r.channel]));
  const choiceIds = choices.map((list, a) => list.map((channel) => tuningId({ channel, width: width[a]! })));
  const weight = radios.map((r) => 1 + r.clients / 10 + r.utilisation / 50);
  const noiseFloor = units(RF_PLAN.SENSITIVITY);
  const fixedCost = (a: number, id: number, channel: number): number => {
    let sum = channel === radios[a]!.channel ? units(radios[a]!.noise) : noiseFloor;
    for (const f of foreign[a]!) {
      const o = overlapOf(id, f.id);
      if (o > 0) sum += o * units(f.rssi);
    }
    return sum;
  };
  const fixed = choices.map((list, a) => list.map((c, k) => fixedCost(a, choiceIds[a]![k]!, c)));
  // The current channel may be none of the choices (channel 3 on 2.4 GHz): its own entry, k = -1.
  const currentId = radios.map((r) => tuningId(r));
  const fixedCurrent = radios.map((r, a) => fixedCost(a, currentId[a]!, r.channel));
  const linkTo = links.map((list) => Int32Array.from(list.map((l) => l.to)));
  // Signal of b at a (in units), and of a at b, at the planned powers (path loss is symmetric).
  const signal = links.map((list) => Float64Array.from(list.map((l) => units(power[l.to]! - l.pl))));
  const heardBy = links.map((list, a) => Float64Array.from(list.map((l) => units(power[a]! - l.pl))));

  /** Each radio's choice index now (-1: its current channel, not one of the choices). */
  const pick = radios.map((r, a) => choices[a]!.indexOf(r.channel));
  const tid = (a: number, k: number): number => (k < 0 ? currentId[a]! : choiceIds[a]![k]!);
  const now = (a: number): number => tid(a, pick[a]!);
  /** Interference radio a takes on choice k, from the others' channels now. */
  const taken = (a: number, k: number): number => {
    let sum = k < 0 ? fixedCurrent[a]! : fixed[a]![k]!;
    const id = tid(a, k);
    const to = linkTo[a]!;
    const sig = signal[a]!;
    for (let i = 0; i < to.length; i++) {
      const o = overlapOf(id, now(to[i]!));
      if (o > 0) sum += o * sig[i]!;
    }
    return sum;
  };
  /** Load-weighted cost change of moving a from its choice now to choice k. */
  const delta = (a: number, k: number): number => {
    const from = pick[a]!;
    if (from === k) return 0;
    let d = weight[a]! * (taken(a, k) - taken(a, from));
    const idFrom = tid(a, from);
    const idTo = tid(a, k);
    const to = linkTo[a]!;
    const heard = heardBy[a]!;
    for (let i = 0; i < to.length; i++) {
      const b = to[i]!;
      const idB = now(b);
      const o = overlapOf(idTo, idB) - overlapOf(idFrom, idB);
      if (o !== 0) d += weight[b]! * o * heard[i]!;
    }
    return d;
  };
  const totalCost = (): number => {
    let sum = 0;
    for (let a = 0; a < n; a++) sum += weight[a]! * taken(a, pick[a]!);
    return sum;
  };
  const current = [...pick];
  const costBefore = totalCost();

  // 3a. DSATUR: the most constrained radio first (most distinct channels among its coloured,
  // audible neighbours; then the loudest neighbourhood), on its cheapest channel against them.
  const audible = links.map((list, a) =>
    list.filter((_, i) => signal[a]![i]! >= 1 || heardBy[a]![i]! >= 1).map((l) => l.to),
  );
  const loudness = signal.map((list) => list.reduce((x, y) => x + y, 0));
  const coloured = new Uint8Array(n);
  const saturation = radios.map(() => new Set<number>());
  const partial = (a: number, k: number): number => {
    let sum = weight[a]! * fixed[a]![k]!;
    const id = choiceIds[a]![k]!;
    const to = linkTo[a]!;
    for (let i = 0; i < to.length; i++) {
      const b = to[i]!;
      if (!coloured[b]) continue;
      const o = overlapOf(id, now(b));
      if (o > 0) sum += o * (weight[a]! * signal[a]![i]! + weight[b]! * heardBy[a]![i]!);
    }
    return sum;
  };
  // A max-heap of (saturation, loudness, radio) with stale entries skipped, not an O(n²) scan.
  const heap = new MaxHeap();
  for (let a = 0; a < n; a++) heap.push(0, loudness[a]!, a);
  for (let step = 0; step < n; step++) {
    let next = -1;
    for (;;) {
      const top = heap.pop();
      if (!top) break;
      if (coloured[top.a] || top.sat !== saturation[top.a]!.size) continue;
      next = top.a;
      break;
    }
    if (next < 0) break;
    let bestK = 0;
    let best = Number.POSITIVE_INFINITY;
    for (let k = 0; k < choices[next]!.length; k++) {
      // Ties keep the radio's channel (no needless change), then the lower channel.
      const cost = partial(next, k) * (k === current[next] ? 1 - 1e-9 : 1);
      if (cost < best) {
        best = cost;
        bestK = k;
      }
    }
    pick[next] = bestK;
    coloured[next] = 1;
    for (const b of audible[next]!) {
      if (coloured[b]) continue;
      const size = saturation[b]!.size;
      saturation[b]!.add(choices[next]![bestK]!);
      if (saturation[b]!.size !== size) heap.push(saturation[b]!.size, loudness[b]!, b);
    }
  }

  // 3b. Simulated annealing over single-radio moves, then greedy descent.
  const moves = n * (options.movesPerRadio ?? 40);
  const deadline = options.budgetMs === undefined ? Number.POSITIVE_INFINITY : started + options.budgetMs;
  let cost = totalCost();
  let bestCost = cost;
  let bestPick = [...pick];
  const movable = [...Array(n).keys()].filter((a) => choices[a]!.length > 1);
  if (movable.length) {
    // Start hot enough to take a typical uphill move half the time.
    const samples = Math.min(200, moves);
    let sample = 0;
    for (let i = 0; i < samples; i++) {
      const a = movable[Math.floor(rnd() * movable.length)]!;
      sample += Math.abs(delta(a, Math.floor(rnd() * choices[a]!.length)));
    }
    const t0 = Math.max(1e-6, sample / samples / Math.LN2);
    const t1 = t0 / 1000;
    // The best assignment is kept at checkpoints (every 256 moves), not copied at every new best.
    const keepBest = () => {
      if (cost < bestCost - 1e-9) {
        bestCost = cost;
        bestPick = [...pick];
      }
    };
    for (let i = 0; i < moves; i++) {
      if ((i & 255) === 0) {
        keepBest();
        if (performance.now() > deadline) break;
      }
      const temperature = t0 * (t1 / t0) ** (i / moves);
      const a = movable[Math.floor(rnd() * movable.length)]!;
      const k = Math.floor(rnd() * choices[a]!.length);
      const d = delta(a, k);
      if (d <= 0 || rnd() < Math.exp(-d / temperature)) {
        pick[a] = k;
        cost += d;
      }
    }
    keepBest();
    for (let a = 0; a < n; a++) pick[a] = bestPick[a]!;
    for (let sweep = 0; sweep < 20; sweep++) {
      let improved = false;
      for (const a of movable) {
        let bestK = -1;
        let bestD = -1e-9;
        for (let k = 0; k < choices[a]!.length; k++) {
          const d = delta(a, k);
          if (d < bestD) {
            bestD = d;
            bestK = k;
          }
        }
        if (bestK >= 0) {
          pick[a] = bestK;
          improved = true;
        }
      }
      if (!improved || performance.now() > deadline) break;
    }
  }

  // 4. Anti-churn: per band, keep the new channels only if the worst radio improves by the margin.
  const margin = options.margin ?? RF_PLAN.DCA_MARGIN;
  const planned = [...pick];
  const worst = (assignment: readonly number[], members: readonly number[]): number => {
    for (let a = 0; a < n; a++) pick[a] = assignment[a]!;
    let w = 0;
    for (const a of members) w = Math.max(w, taken(a, pick[a]!));
    return unitsToDbm(w);
  };
  const outcome = (band24: boolean): BandOutcome | null => {
    const members = [...Array(n).keys()].filter((a) => radios[a]!.channel <= 14 === band24);
    if (!members.length) return null;
    const worstBefore = worst(current, members);
    const worstAfter = worst(planned, members);
    const moved = members.some((a) => planned[a] !== current[a]);
    // Counted above the CCA threshold only: a neighbour heard below it does not make a radio wait
    // for the air, so a plan that takes the worst radio from -84 to -95 dBm improves nothing a
    // client notices — and, as raised powers make APs heard that no scan reported before, each run
    // found such a plan and moved most channels again (decision 0048, anti-churn).
    const above = (dbm: number) => Math.max(dbm, RF_PLAN.CCA_THRESHOLD);
    const applied = moved && above(worstBefore) - above(worstAfter) >= margin;
    return { worstBefore: round1(worstBefore), worstAfter: round1(worstAfter), applied };
  };
  const b24 = outcome(true);
  const b5 = outcome(false);
  for (let a = 0; a < n; a++) {
    const kept = radios[a]!.channel <= 14 ? b24?.applied : b5?.applied;
    pick[a] = kept ? planned[a]! : current[a]!;
  }
  const costAfter = totalCost();

  const out: RadioPlan[] = radios.map((r, a) => {
    const channel = pick[a]! < 0 ? r.channel : choices[a]![pick[a]!]!;
    // The country may allow less on the channel chosen than on the band (e.g. 23 dBm on 36-64).
    const p = Math.max(r.minPower, Math.min(power[a]!, r.limit ? r.limit(channel) : r.maxPower));
    return {
      id: r.id,
      channel,
      width: r.width,
      power: p,
      channelChanged: channel !== r.channel,
      powerChanged: p !== r.power,
    };
  });
  return {
    radios: out,
    bands: { '2.4': b24, '5': b5 },
    changed: out.some((r) => r.channelChanged || r.powerChanged),
    costBefore,
    costAfter,
    ms: performance.now() - started,
  };
}

interface HeapEntry {
  sat: number;
  loud: number;
  a: number;
}

/** A binary max-heap ordered by saturation, then loudness, then the lower index. */
class MaxHeap {
  private readonly items: HeapEntry[] = [];

  private above(x: HeapEntry, y: HeapEntry): boolean {
    return x.sat !== y.sat ? x.sat > y.sat : x.loud !== y.loud ? x.loud > y.loud : x.a < y.a;
  }

  push(sat: number, loud: number, a: number): void {
    const items = this.items;
    items.push({ sat, loud, a });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && this.above(items[l]!, items[best]!)) best = l;
        if (r < items.length && this.above(items[r]!, items[best]!)) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best]!, items[i]!];
        i = best;
      }
    }
    return top;
  }
}

const round1 = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : -999);
