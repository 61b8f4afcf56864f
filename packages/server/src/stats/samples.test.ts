import type { Telemetry } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { type PreviousSample, samplesOf } from './samples.ts';

const now = new Date('2026-11-24T12:00:30Z');
const before = new Date('2026-11-24T12:00:00Z');

function telemetry(over: Partial<Telemetry> = {}): Telemetry {
  return {
    ts: now.getTime(),
    uptime: 1000,
    cpu: 12.5,
    memory: 40,
    clientCount: 0,
    clients: [],
    led: true,
    locating: false,
    ...over,
  };
}

const prev = (over: Partial<PreviousSample> = {}): PreviousSample => ({
  projectId: 7,
  at: before,
  uptime: 970,
  wan: null,
  ports: null,
  radios: null,
  ...over,
});

const port = (id: number, rxBytes: number, txBytes: number) => ({
  id,
  type: 'electrical' as const,
  enabled: true,
  link: true,
  speed: 1000,
  duplex: 'full' as const,
  poe: null,
  rxBytes,
  txBytes,
  rxRate: 0,
  txRate: 0,
});

describe('statistics samples from a telemetry', () => {
  it('keeps the bytes moved since the previous telemetry, per port and in total', () => {
    const s = samplesOf(
      'SN1',
      telemetry({ ports: [port(1, 5000, 700), port(2, 100, 100)] }),
      now,
      prev({
        ports: [
          { id: 1, rxBytes: 1000, txBytes: 200 },
          { id: 2, rxBytes: 100, txBytes: 50 },
        ],
      }),
    )!;
    expect(s.device).toMatchObject({
      projectId: 7,
      rxBytes: 4000,
      txBytes: 550,
      seconds: 30,
      wanRxBytes: null,
    });
    expect(s.dims).toEqual([
      expect.objectContaining({ kind: 'port', key: '1', rxBytes: 4000, txBytes: 500 }),
      expect.objectContaining({ kind: 'port', key: '2', rxBytes: 0, txBytes: 50 }),
    ]);
  });

  it('counts from zero after a reboot (uptime went down) and nothing across a gap or on a first telemetry', () => {
    const rebooted = samplesOf(
      'SN1',
      telemetry({ uptime: 20, ports: [port(1, 300, 30)] }),
      now,
      prev({ ports: [{ id: 1, rxBytes: 9000, txBytes: 900 }] }),
    )!;
    expect(rebooted.device).toMatchObject({ rxBytes: 300, txBytes: 30 });
    const gap = samplesOf(
      'SN1',
      telemetry({ ports: [port(1, 5000, 700)] }),
      now,
      prev({ at: new Date(now.getTime() - 3_600_000), ports: [{ id: 1, rxBytes: 1000, txBytes: 200 }] }),
    )!;
    expect(gap.device).toMatchObject({ rxBytes: 0, txBytes: 0, seconds: 0 });
    const first = samplesOf(
      'SN1',
      telemetry({ ports: [port(1, 5000, 700)] }),
      now,
      prev({ at: null, ports: null }),
    )!;
    expect(first.device).toMatchObject({ rxBytes: 0, txBytes: 0 });
  });

  it('caps a hostile counter at 100 Gbit/s over the elapsed time', () => {
    const s = samplesOf(
      'SN1',
      telemetry({ ports: [port(1, Number.MAX_SAFE_INTEGER, 0)] }),
      now,
      prev({ ports: [{ id: 1, rxBytes: 0, txBytes: 0 }] }),
    )!;
    expect(s.device.rxBytes).toBe((100e9 / 8) * 30);
  });

  it('takes a gateway’s traffic from its WAN and an AP’s from its radios; counts clients per SSID', () => {
    const gw = samplesOf(
      'GW',
      telemetry({
        ports: [port(1, 10, 10)],
        wan: { online: true, ip: null, rxRate: 0, txRate: 0, rxBytes: 9000, txBytes: 3000 },
      }),
      now,
      prev({ wan: { rxBytes: 1000, txBytes: 1000 }, ports: [{ id: 1, rxBytes: 0, txBytes: 0 }] }),
    )!;
    expect(gw.device).toMatchObject({ rxBytes: 8000, txBytes: 2000, wanRxBytes: 8000, wanTxBytes: 2000 });
    const client = (ssid: string, band: '2.4G' | '5G') => ({
      mac: '02:00:00:00:00:01',
      name: 'c',
      ip: '10.0.0.2',
      kind: 'phone' as const,
      wired: false,
      ssid,
      band,
      rssi: -50,
      txRate: 0,
      rxRate: 0,
      txBytes: 0,
      rxBytes: 0,
      onlineSeconds: 1,
      vlan: null,
    });
    const ap = samplesOf(
      'AP',
      telemetry({
        clientCount: 3,
        clients: [client('Staff', '2.4G'), client('Staff', '5G'), client('Guest', '5G')],
        radios: [
          {
            band: '5G',
            channel: 36,
            power: 20,
            utilisation: 5,
            noise: -90,
            clients: 2,
            rxBytes: 500,
            txBytes: 900,
          },
        ],
      }),
      now,
      prev({ radios: [{ band: '5G', rxBytes: 100, txBytes: 100 }] }),
    )!;
    expect(ap.device).toMatchObject({ clients: 3, rxBytes: 400, txBytes: 800 });
    expect(ap.dims.filter((d) => d.kind === 'ssid').map((d) => [d.key, d.clients])).toEqual([
      ['Staff', 2],
      ['Guest', 1],
    ]);
    expect(ap.dims.find((d) => d.kind === 'radio')).toMatchObject({ key: '5G', clients: 2, rxBytes: 400 });
  });

  it('stores nothing for a device no project has claimed', () => {
    expect(samplesOf('SN1', telemetry(), now, prev({ projectId: null }))).toBeNull();
  });
});
