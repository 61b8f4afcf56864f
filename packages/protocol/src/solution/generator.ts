import type { Recommendation, SolutionInput, SolutionLine, SolutionStep } from '../api/solutions.ts';
import { modelInfo } from '../device/models.ts';
import { LIMITS } from '../enums/limits.ts';
import { AppError, Codes } from '../errors.ts';
import {
  AP_PLANNING,
  GATEWAY_PLANNING,
  POE_PORT_WATTS,
  poeCovers,
  profileOf,
  RADIO,
  SWITCH_PLANNING,
  switchPorts,
  USABLE_SHARE,
  wanPorts,
} from './planning.ts';

/**
 * The solution generator (docs/solution-generator.md, decision 0054): a pure function of the
 * inputs and the model catalogue, run by the server when a solution is generated or saved and by
 * the form for its preview. Every quantity is computed, and every line and step says why:
 *
 * 1. clients = connected clients, else (rooms + dormitories + classrooms + offices + wards) × clients per room;
 *    demand = clients × the scenario's per-client rate.
 * 2. APs = max(rule, capacity, coverage):
 *    rule     = one per classroom, ward and office, one per two dormitory rooms, and either one per
 *               hotel room or, when a corridor length is given, corridor APs every √3·r metres per floor;
 *    capacity = max(⌈demand / (rated × 50%)⌉, ⌈clients / (128 × bands)⌉);
 *    coverage = floors × ⌈area / hexagon(r)⌉, r from a log-distance path loss and the install height.
 * 3. access switches = max(⌈APs / APs per switch⌉, min(floors, APs)), APs per switch =
 *    min(PoE ports, ⌊PoE budget / port class watts⌋);
 * 4. core switches = 0 for one access switch, else ⌈access / (core ports − 1)⌉;
 * 5. one gateway: lines = ⌈broadband / bandwidth per line⌉ ≤ its WAN ports, broadband ≤ its
 *    throughput, clients ≤ its client rating.
 * Refusals: 5051 a role without a model, 5048 no clients, 5052 nothing the chosen models can do,
 * 5049 an access switch count the core switches cannot uplink, 5050 more switches than APs,
 * 5400 past SPEC.md §9's caps.
 */

const ceil = Math.ceil;
const fmt = (n: number, digits = 1): string =>
  Number.isInteger(n)
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Ground radius (m) one AP covers at the edge signal, for a path-loss exponent and install height. */
export function coverageRadius(pathLossExponent: number, installHeight: number): number {
  const budget = RADIO.eirpDbm - RADIO.edgeDbm - RADIO.lossAt1mDb;
  const reach = 10 ** (budget / (10 * pathLossExponent));
  const drop = Math.max(0, installHeight - RADIO.clientHeightM);
  return reach > drop ? Math.sqrt(reach * reach - drop * drop) : 0;
}

/** Area of the hexagon inscribed in the coverage circle (cells tile with overlap for roaming). */
export const cellArea = (radius: number): number => ((3 * Math.sqrt(3)) / 2) * radius * radius;

function noPlan(reason: string): never {
  throw new AppError(Codes.SOLUTION_NO_PLAN, `No matching plan: ${reason}`);
}

function requireModel(role: string, field: string, model: string, table: Record<string, unknown>): void {
  if (!model) {
    throw new AppError(Codes.SOLUTION_NO_DEVICE_TYPE, `Device type not selected: choose the ${role} model`, {
      [field]: 'Select a model',
    });
  }
  if (!(model in table)) noPlan(`${model} cannot be planned as the ${role}`);
}

function cap(what: string, value: number, max: number): void {
  if (value > max) {
    throw new AppError(
      Codes.SOLUTION_CAP,
      `A solution has at most ${max} ${what}; this one needs ${fmt(value)}`,
    );
  }
}

export function generateSolution(input: SolutionInput): Recommendation {
  const steps: SolutionStep[] = [];
  const step = (label: string, value: string, reason: string) => steps.push({ label, value, reason });

  requireModel('AP', 'apModel', input.apModel, AP_PLANNING);
  requireModel('gateway', 'gatewayModel', input.gatewayModel, GATEWAY_PLANNING);
  requireModel('access switch', 'accessSwitchModel', input.accessSwitchModel, SWITCH_PLANNING);

  // 1. Clients and demand.
  const profile = profileOf(input.scenario);
  const units = input.rooms + input.dormitories + input.classrooms + input.offices + input.wards;
  const clients = input.connectedClients > 0 ? input.connectedClients : units * input.clientsPerRoom;
  if (clients <= 0) {
    throw new AppError(
      Codes.SOLUTION_INPUT,
      'Incorrect client count: enter the connected clients, or rooms and clients per room',
      { connectedClients: 'Enter the number of clients' },
    );
  }
  if (input.maxBandwidthPerLine > input.broadband) {
    throw new AppError(
      Codes.SOLUTION_INPUT,
      'Incorrect bandwidth: a line cannot be faster than the broadband',
      {
        maxBandwidthPerLine: 'At most the broadband',
      },
    );
  }
  const demand = clients * profile.clientMbps;
  step(
    'Clients',
    fmt(clients),
    input.connectedClients > 0
      ? 'Connected clients as entered'
      : `${fmt(units)} rooms, classrooms, offices and wards × ${input.clientsPerRoom} clients each`,
  );
  step(
    'Client demand',
    `${fmt(demand)} Mbps`,
    `${fmt(clients)} clients × ${profile.clientMbps} Mbps for ${profile.application}`,
  );

  // 2. APs.
  const ap = AP_PLANNING[input.apModel];
  const apInfo = modelInfo(input.apModel)!;
  const usable = ap.ratedMbps * USABLE_SHARE;
  const perApClients = LIMITS.CLIENTS_PER_BAND * apInfo.bands.length;
  const byThroughput = ceil(demand / usable);
  const byClients = ceil(clients / perApClients);
  const capacity = Math.max(byThroughput, byClients);
  step(
    'APs for capacity',
    fmt(capacity),
    `max(${fmt(demand)} Mbps ÷ ${fmt(usable)} Mbps usable per AP (${USABLE_SHARE * 100}% of ${fmt(ap.ratedMbps)} Mbps rated) = ${byThroughput}, ` +
      `${fmt(clients)} clients ÷ ${perApClients} per AP (${LIMITS.CLIENTS_PER_BAND} per band × ${apInfo.bands.length} bands) = ${byClients})`,
  );

  const radius = coverageRadius(profile.pathLossExponent, input.installHeight);
  if (radius <= 0) noPlan(`an AP installed at ${input.installHeight} m covers no floor area`);
  const cell = cellArea(radius);
  const perFloor = input.area > 0 ? ceil(input.area / cell) : 0;
  const coverage = perFloor * input.floors;
  step(
    'APs for coverage',
    fmt(coverage),
    input.area > 0
      ? `${input.floors} floors × ⌈${fmt(input.area)} m² ÷ ${fmt(cell, 0)} m² per AP⌉; radius ${fmt(radius)} m at ${input.installHeight} m install height (path-loss exponent ${profile.pathLossExponent})`
      : 'No area entered',
  );

  const ruleParts: string[] = [];
  let rule = 0;
  const add = (n: number, text: string) => {
    if (n > 0) {
      rule += n;
      ruleParts.push(text);
    }
  };
  add(input.classrooms, `${input.classrooms} classrooms × 1`);
  add(input.wards, `${input.wards} wards × 1`);
  add(input.offices, `${input.offices} offices × 1`);
  add(ceil(input.dormitories / 2), `⌈${input.dormitories} dormitory rooms ÷ 2⌉`);
  if (input.corridorLength > 0) {
    const spacing = Math.sqrt(3) * radius;
    const corridor = ceil(input.corridorLength / spacing) * input.floors;
    add(
      corridor,
      `${input.floors} floors × ⌈${fmt(input.corridorLength)} m corridor ÷ ${fmt(spacing)} m spacing⌉ (rooms covered from the corridor)`,
    );
  } else {
    add(input.rooms, `${input.rooms} rooms × 1 in-room AP`);
  }
  step('APs for the scenario rules', fmt(rule), ruleParts.join(' + ') || 'No rooms entered');

  const recommendedAps = Math.max(rule, capacity, coverage);
  const aps = input.overrides.aps ?? recommendedAps;
  cap('APs', aps, LIMITS.SOLUTION_APS);

  // 3. Access switches.
  const accessModel = input.accessSwitchModel;
  const accessPoe = SWITCH_PLANNING[accessModel].poe;
  if (!accessPoe) noPlan(`${accessModel} gives no PoE to power the APs`);
  if (!poeCovers(accessPoe, ap.poe)) {
    noPlan(`${input.apModel} needs 802.3${ap.poe} PoE; ${accessModel} gives 802.3${accessPoe}`);
  }
  const sw = switchPorts(accessModel);
  const portWatts = POE_PORT_WATTS[ap.poe];
  const apsPerSwitch = Math.min(sw.poePorts, Math.floor(sw.budget / portWatts));
  if (apsPerSwitch < 1) noPlan(`${accessModel}'s PoE budget cannot power one ${input.apModel}`);
  const byPoe = ceil(aps / apsPerSwitch);
  const byFloor = Math.min(input.floors, aps);
  const recommendedAccess = Math.max(byPoe, byFloor);
  step(
    'Access switches',
    fmt(recommendedAccess),
    `max(⌈${fmt(aps)} APs ÷ ${apsPerSwitch} per switch⌉ = ${byPoe}, one per floor = ${byFloor}); ` +
      `${apsPerSwitch} per switch = min(${sw.poePorts} PoE ports, ⌊${sw.budget} W budget ÷ ${portWatts} W per 802.3${ap.poe} port⌋)`,
  );

  // 4. Core switches.
  const core = input.coreSwitchModel;
  const recommendedCore = (access: number): number => {
    if (access <= 1) return 0;
    const downlinks = switchPorts(core).ports - 1;
    return ceil(access / downlinks);
  };
  const edited = input.overrides.accessSwitches;
  const access = edited ?? recommendedAccess;
  cap('access switches', access, LIMITS.SOLUTION_ACCESS_SWITCHES);
  const needsCore = access > 1 || (input.overrides.coreSwitches ?? 0) > 0;
  if (needsCore) requireModel('core switch', 'coreSwitchModel', core, SWITCH_PLANNING);
  const coreRecommended = needsCore ? recommendedCore(recommendedAccess) : 0;
  // An edited access switch count keeps the core count: raising it past what the core uplinks asks
  // for the core switch to be edited first (5049).
  const coreCount = input.overrides.coreSwitches ?? coreRecommended;
  cap('core switches', coreCount, LIMITS.SOLUTION_CORE_SWITCHES);
  if (access > 1) {
    const downlinks = switchPorts(core).ports - 1;
    const uplinked = coreCount * downlinks;
    if (access > uplinked) {
      throw new AppError(
        Codes.SOLUTION_EDIT_ORDER,
        `Edit the core switch first, then the access switch: ${coreCount} × ${core} uplink at most ${uplinked} access switches`,
        { accessSwitches: `At most ${uplinked}` },
      );
    }
    step(
      'Core switches',
      fmt(coreCount),
      `⌈${access} access switches ÷ ${downlinks} downlink ports per ${core}⌉ (one port kept for the gateway)`,
    );
  } else {
    step('Core switches', '0', 'One access switch connects straight to the gateway');
  }
  if (access + coreCount > aps) {
    throw new AppError(
      Codes.SOLUTION_SWITCHES_OUTNUMBER_APS,
      `The switches outnumber the APs: ${access + coreCount} switches for ${aps} APs`,
    );
  }

  // 5. The gateway.
  const gw = GATEWAY_PLANNING[input.gatewayModel];
  const lines = ceil(input.broadband / input.maxBandwidthPerLine);
  const wans = wanPorts(input.gatewayModel);
  if (lines > wans) {
    noPlan(`${lines} broadband lines need ${lines} WAN ports; ${input.gatewayModel} has ${wans}`);
  }
  if (input.broadband > gw.throughputMbps) {
    noPlan(
      `${fmt(input.broadband)} Mbps broadband exceeds ${input.gatewayModel}'s ${fmt(gw.throughputMbps)} Mbps`,
    );
  }
  if (clients > gw.clients) {
    noPlan(`${fmt(clients)} clients exceed ${input.gatewayModel}'s ${fmt(gw.clients)}`);
  }
  step(
    'Gateway',
    '1',
    `${fmt(input.broadband)} Mbps over ⌈${fmt(input.broadband)} ÷ ${fmt(input.maxBandwidthPerLine)}⌉ = ${lines} lines: ` +
      `${input.gatewayModel} has ${wans} WAN ports, ${fmt(gw.throughputMbps)} Mbps and is sized for ${fmt(gw.clients)} clients`,
  );

  const line = (
    role: SolutionLine['role'],
    model: string,
    quantity: number,
    recommended: number,
    remark: string,
    reason: string,
  ): SolutionLine => ({
    role,
    model,
    description: modelInfo(model)?.description ?? '',
    quantity,
    recommended,
    remark: quantity === recommended ? remark : `${remark}; edited (recommended ${recommended})`,
    reason,
  });
  const lines_: SolutionLine[] = [
    line(
      'ap',
      input.apModel,
      aps,
      recommendedAps,
      `802.3${ap.poe} PoE, ${apInfo.bands.length} bands`,
      `max(scenario rules ${rule}, capacity ${capacity}, coverage ${coverage})`,
    ),
    line(
      'access_switch',
      accessModel,
      access,
      recommendedAccess,
      `${apsPerSwitch} APs per switch`,
      `PoE ports and budget for ${fmt(aps)} APs, at least one per floor`,
    ),
  ];
  if (coreCount > 0) {
    lines_.push(
      line(
        'core_switch',
        core,
        coreCount,
        coreRecommended,
        'Aggregates the access switches',
        `Downlinks for ${access} access switches`,
      ),
    );
  }
  lines_.push(
    line(
      'gateway',
      input.gatewayModel,
      1,
      1,
      `${lines} WAN lines`,
      `${fmt(input.broadband)} Mbps broadband, ${fmt(clients)} clients`,
    ),
  );

  const advice = [
    `Mount the APs on the ceiling at ${input.installHeight} m, about ${fmt(Math.sqrt(3) * radius, 0)} m apart, clear of metal and pillars.`,
    input.corridorLength > 0
      ? 'Place corridor APs between room doors, staggered on opposite walls, so every room is one wall away.'
      : input.rooms > 0
        ? 'Install one wall-plate or ceiling AP inside each room so walls do not weaken the signal.'
        : 'Spread the APs evenly over the area; place extra APs where people gather.',
    `Use 5 GHz with 20 or 40 MHz channels and let RF optimisation choose channels and power across ${fmt(aps)} APs.`,
    `Keep copper runs from each AP to its access switch under 100 m; put ${access > input.floors ? 'the' : 'one'} access switch${access === 1 ? '' : 'es'} in each floor's wiring closet.`,
    coreCount > 0
      ? `Uplink every access switch to the core over fibre (SFP); connect the core to the gateway's LAN.`
      : 'Uplink the access switch to the gateway LAN port.',
    `Terminate the ${lines} broadband line${lines === 1 ? '' : 's'} on the gateway's WAN ports with load balancing${lines > 1 ? ' and failover' : ''}.`,
    'Separate guests, staff and devices with VLANs and Wi-Fi policies; enable the guest network for visitors.',
  ];
  const advantages = [
    'Cloud managed: every device is configured, monitored and upgraded from the Beacon console.',
    `Capacity for ${fmt(clients)} concurrent clients at ${profile.clientMbps} Mbps each (${fmt(demand)} Mbps).`,
    'Seamless roaming: overlapping AP cells on one SSID.',
    'PoE powers every AP from its switch: no power outlets at the ceiling.',
    'Room to grow: the plan stays inside the per-solution limits of 999 APs and 99 switches per tier.',
  ];
  return { clients, demandMbps: demand, lines: lines_, steps, advice, advantages };
}
