import type { DeviceCore } from './core.ts';

/**
 * Incidents a simulated device can be made to have (tests, demos): what a real device reports when
 * it is in trouble, over the same MQTT messages — telemetry with a high load, and the `event`
 * messages of an IP conflict, a PoE budget overrun, a failed upgrade or a watchdog restart. The
 * server's alarms (src/alarms/) are raised from exactly these.
 */
export const INCIDENTS = [
  'high-cpu',
  'high-memory',
  'ip-conflict',
  'poe-over-budget',
  'upgrade-failed',
  'crash',
] as const;
export type Incident = (typeof INCIDENTS)[number];

export interface IncidentOptions {
  /** How long a high load lasts (ms of real time); 10 minutes by default. */
  durationMs?: number;
  /** The load held during a high-cpu or high-memory incident (percent); 97 by default. */
  percent?: number;
}

export function triggerIncident(core: DeviceCore, incident: Incident, options: IncidentOptions = {}): void {
  const percent = options.percent ?? 97;
  const until = Date.now() + (options.durationMs ?? 600_000);
  const info = core.info;
  switch (incident) {
    case 'high-cpu':
      core.options.live.stress = { ...core.options.live.stress, cpu: percent, until };
      core.publishTelemetry();
      core.emitEvent('high-cpu', 'warning', `CPU usage ${percent} %`, { cpu: percent });
      return;
    case 'high-memory':
      core.options.live.stress = { ...core.options.live.stress, memory: percent, until };
      core.publishTelemetry();
      core.emitEvent('high-memory', 'warning', `Memory usage ${percent} %`, { memory: percent });
      return;
    case 'ip-conflict': {
      const other = `02:00:${core.sn
        .slice(-8)
        .replace(/[^0-9A-F]/gi, '0')
        .slice(0, 8)
        .match(/../g)!
        .join(':')}`.toUpperCase();
      core.emitEvent('ip-conflict', 'critical', `IP address ${core.options.ip} is also used by ${other}`, {
        ip: core.options.ip,
        mac: other,
      });
      return;
    }
    case 'poe-over-budget': {
      const budget = info.poeBudget || 60;
      const port = info.ports.find((p) => p.poe)?.id ?? 1;
      core.emitEvent(
        'poe-overload',
        'critical',
        `PoE budget of ${budget} W exceeded: port ${port} is not powered`,
        {
          port,
          budget,
          demand: Math.round(budget * 1.2),
        },
      );
      return;
    }
    case 'upgrade-failed': {
      const from = core.store.data.firmware;
      core.emitEvent('upgrade-failed', 'warning', `Upgrade from ${from} failed: image verification failed`, {
        from,
        reason: 'verify',
      });
      return;
    }
    case 'crash':
      // A restart nobody asked for: the device reports why it booted.
      core.emitEvent('booted', 'warning', 'Device restarted unexpectedly (watchdog)', { reason: 'watchdog' });
      return;
  }
}
