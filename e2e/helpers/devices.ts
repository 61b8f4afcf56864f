import { type Incident, type SimulatedDevice, startDevice } from '@beacon/agent';

/** Models of the e2e pool: one AP, one switch, one CPE (serial numbers E2EPOOL{type}{n}). */
const POOL: {
  sn: string;
  model: string;
  incident?: { kind: Incident; everyMs: number };
  clients?: { population: number; onlineShare: number };
}[] = [
  { sn: 'E2EPOOLAP0000001', model: 'BA-W1200C' },
  { sn: 'E2EPOOLAP0000002', model: 'BA-W1200C' },
  { sn: 'E2EPOOLSW0000001', model: 'BS-S1008P' },
  { sn: 'E2EPOOLCP0000001', model: 'BC-C5' },
  // command-outcomes.test.ts: its own AP, so its reboot does not meet another test's.
  { sn: 'E2EPOOLAP0000003', model: 'BA-W1200C' },
  // switch-ports.test.ts: its own switch, whose ports it configures.
  { sn: 'E2EPOOLSW0000003', model: 'BS-S1008P' },
  // network.test.ts: a gateway and a switch of its own.
  { sn: 'E2EPOOLGW0000001', model: 'BG-R1200' },
  { sn: 'E2EPOOLSW0000002', model: 'BS-S1008P' },
  // alarms.test.ts: reports an IP conflict every 3 s, so an alarm is raised once it joins a project.
  { sn: 'E2EPOOLAP0000006', model: 'BA-W1200C', incident: { kind: 'ip-conflict', everyMs: 3000 } },
  // logs.test.ts: its reboot's "booted" event reaches the Log screen live.
  { sn: 'E2EPOOLAP0000005', model: 'BA-W1200C' },
  // clients.test.ts: an AP with clients online at any hour (the pool sends no client events).
  { sn: 'E2EPOOLAP0000004', model: 'BA-W1200C', clients: { population: 12, onlineShare: 0.75 } },
  // dhcp-server.test.ts: an AP whose own DHCP server it configures.
  { sn: 'E2EPOOLAP0000008', model: 'BA-W1200C' },
  // wireless.test.ts: two APs that run the Wi-Fi policy it creates.
  { sn: 'E2EPOOLWF0000001', model: 'BA-W1200C' },
  { sn: 'E2EPOOLWF0000002', model: 'BA-W1200C' },
];

/**
 * A small pool of powered-on, unclaimed simulated devices against the e2e server's broker, at a time
 * scale of 0.05 (a 60 s reboot takes 3 s: long enough to see "Rebooting" in the browser).
 */
export async function startE2eDevicePool(
  url: string,
  factoryKey: string,
): Promise<{ sns: string[]; stop(): Promise<void> }> {
  const devices: SimulatedDevice[] = await Promise.all(
    POOL.map((d) =>
      startDevice({
        url,
        sn: d.sn,
        model: d.model,
        factoryKey,
        timeScale: 0.05,
        telemetryMs: 2000,
        backoffMinMs: 200,
        backoffMaxMs: 1000,
        clientEvents: false,
        incident: d.incident,
        clients: d.clients,
      }),
    ),
  );
  return {
    sns: POOL.map((d) => d.sn),
    async stop() {
      await Promise.all(devices.map((d) => d.stop().catch(() => {})));
    },
  };
}
