import type { Telemetry } from '@beacon/protocol';

/**
 * From one telemetry to statistics rows (docs/monitoring-storage.md). Devices report byte counters
 * that grow and reset on reboot; the rows keep the bytes moved since the device's previous
 * telemetry (a delta), so rollups only add. A counter lower than before (a reboot) counts from 0;
 * a first telemetry (nothing before) counts nothing. Deltas are bounded by 100 Gbit/s over the
 * elapsed time, so a hostile counter cannot fill a chart.
 */

/** What the device reported last time, read from `device_state` under the telemetry's row lock. */
export interface PreviousSample {
  projectId: number | null;
  at: Date | null;
  uptime: number | null;
  wan: { rxBytes?: number; txBytes?: number } | null;
  ports: { id: number; rxBytes?: number; txBytes?: number }[] | null;
  radios: { band: string; rxBytes?: number; txBytes?: number }[] | null;
}

export interface DeviceSampleRow {
  at: string;
  projectId: number;
  sn: string;
  cpu: number;
  memory: number;
  clients: number;
  rxBytes: number;
  txBytes: number;
  wanRxBytes: number | null;
  wanTxBytes: number | null;
  seconds: number;
}

export interface DimSampleRow {
  at: string;
  projectId: number;
  sn: string;
  kind: 'port' | 'radio' | 'ssid';
  key: string;
  clients: number | null;
  rxBytes: number;
  txBytes: number;
}

/** Longest gap a delta may cover; beyond it the device was away and its bytes are not spread. */
export const MAX_SAMPLE_SECONDS = 600;
/** SSIDs counted per telemetry (7 all-device + 30 specified + 1 guest networks fit in SPEC.md §9's 38). */
export const MAX_SSIDS = 38;
const MAX_BYTES_PER_SECOND = 100e9 / 8;

function delta(current: number | undefined, previous: number | undefined, seconds: number): number {
  if (current === undefined || previous === undefined || seconds <= 0) return 0;
  const d = current >= previous ? current - previous : current;
  return Math.min(d, Math.round(MAX_BYTES_PER_SECOND * seconds));
}

export function samplesOf(
  sn: string,
  t: Telemetry,
  now: Date,
  prev: PreviousSample,
): { device: DeviceSampleRow; dims: DimSampleRow[] } | null {
  if (prev.projectId === null) return null; // unclaimed: no project to chart it in
  const projectId = prev.projectId;
  const elapsed = prev.at ? (now.getTime() - prev.at.getTime()) / 1000 : 0;
  // A device that rebooted or was away longer than MAX_SAMPLE_SECONDS: no delta over the gap.
  const rebooted = prev.uptime !== null && t.uptime < prev.uptime;
  const seconds = elapsed > 0 && elapsed <= MAX_SAMPLE_SECONDS ? elapsed : 0;
  const d = (cur: number | undefined, before: number | undefined) =>
    delta(cur, rebooted ? 0 : before, seconds);
  const at = now.toISOString();
  const dims: DimSampleRow[] = [];
  let portRx = 0;
  let portTx = 0;
  for (const p of t.ports ?? []) {
    const before = prev.ports?.find((x) => x.id === p.id);
    const rx = d(p.rxBytes, before?.rxBytes);
    const tx = d(p.txBytes, before?.txBytes);
    portRx += rx;
    portTx += tx;
    dims.push({
      at,
      projectId,
      sn,
      kind: 'port',
      key: String(p.id),
      clients: null,
      rxBytes: rx,
      txBytes: tx,
    });
  }
  let radioRx = 0;
  let radioTx = 0;
  let radioBytes = false;
  for (const r of t.radios ?? []) {
    const before = prev.radios?.find((x) => x.band === r.band);
    const rx = d(r.rxBytes, before?.rxBytes);
    const tx = d(r.txBytes, before?.txBytes);
    if (r.rxBytes !== undefined) radioBytes = true;
    radioRx += rx;
    radioTx += tx;
    dims.push({
      at,
      projectId,
      sn,
      kind: 'radio',
      key: r.band,
      clients: r.clients,
      rxBytes: rx,
      txBytes: tx,
    });
  }
  const perSsid = new Map<string, number>();
  for (const c of t.clients) {
    if (c.ssid === null) continue;
    if (!perSsid.has(c.ssid) && perSsid.size >= MAX_SSIDS) continue;
    perSsid.set(c.ssid, (perSsid.get(c.ssid) ?? 0) + 1);
  }
  for (const [ssid, n] of perSsid)
    dims.push({ at, projectId, sn, kind: 'ssid', key: ssid, clients: n, rxBytes: 0, txBytes: 0 });
  const wanRx = t.wan ? d(t.wan.rxBytes, prev.wan?.rxBytes) : null;
  const wanTx = t.wan ? d(t.wan.txBytes, prev.wan?.txBytes) : null;
  // The device's own traffic: its WAN (gateways), else what its radios moved (APs), else its ports.
  const [rx, tx] =
    wanRx !== null && wanTx !== null ? [wanRx, wanTx] : radioBytes ? [radioRx, radioTx] : [portRx, portTx];
  return {
    device: {
      at,
      projectId,
      sn,
      cpu: t.cpu,
      memory: t.memory,
      clients: t.clientCount,
      rxBytes: rx,
      txBytes: tx,
      wanRxBytes: wanRx,
      wanTxBytes: wanTx,
      seconds,
    },
    dims,
  };
}
