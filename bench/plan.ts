import { fleetSn } from '@beacon/agent';
import { type DeviceType, modelsOfType } from '@beacon/protocol';

export type { DeviceType };

/** Serial numbers and models of a bench fleet: round-robin over `types`, each type's models in turn. */
export function fleetSnPlan(
  n: number,
  types: DeviceType[],
  prefix = 'BENCH',
): { sn: string; model: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const type = types[i % types.length];
    const models = modelsOfType(type);
    return {
      sn: fleetSn(prefix, type, i + 1),
      model: models[Math.floor(i / types.length) % models.length].model,
    };
  });
}
