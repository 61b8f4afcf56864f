import { describe, expect, it } from 'vitest';
import { validateDeviceConfig } from './config.ts';
import { modelInfo } from './models.ts';
import { completeSwitchConfig, switchConfigSchema, validateSwitchConfig } from './switch-config.ts';

const S1008P = modelInfo('BS-S1008P')!;
const S1016 = modelInfo('BS-S1016')!;
const AP = modelInfo('BA-W1200C')!;

const check = (section: unknown, info = S1008P) =>
  validateSwitchConfig(switchConfigSchema.parse(section), info);

describe('switch section', () => {
  it('fills every port of the model with its defaults, PoE settings only on PoE ports', () => {
    const full = completeSwitchConfig(S1008P, { ports: [{ id: 2, name: 'ap' }] });
    expect(full.ports.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(full.ports[1]).toMatchObject({ id: 2, name: 'ap', mode: 'access', pvid: 1 });
    expect(full.ports[0].poe).toEqual({ enabled: true, power: 0 });
    expect(full.ports[8].poe).toBeNull();
    expect(full).toMatchObject({ qvlan: true, managementVlan: 1, ip: { mode: 'dhcp' } });
    expect(check(full)).toBeNull();
  });

  it('PoE on a switch without a budget is a model failure', () => {
    expect(check({ ports: [{ id: 1, poe: { enabled: true, power: 0 } }] }, S1016)).toMatchObject({
      code: 2,
      path: 'ports.0.poe',
    });
  });

  it('the management VLAN may be any VLAN while QVLAN is off', () => {
    expect(check({ qvlan: true, managementVlan: 50 })).toMatchObject({ code: 5013 });
    expect(check({ qvlan: false, managementVlan: 50 })).toBeNull();
    expect(check({ managementVlan: 50, ports: [{ id: 9, mode: 'trunk', allowed: [50] }] })).toBeNull();
  });

  it('a switch runs the rules on the documents it is sent; other types cannot take the section', () => {
    const doc = { switch: switchConfigSchema.parse({ ports: [{ id: 1, aggregation: 1 }] }) };
    expect(validateDeviceConfig(doc, S1008P)).toMatchObject({
      code: 5015,
      path: 'switch.ports.0.aggregation',
    });
    expect(validateDeviceConfig({ switch: switchConfigSchema.parse({}) }, AP)).toMatchObject({
      code: 2,
      path: 'switch',
    });
  });

  it('an aggregation group of identical ports is valid, up to 8 ports', () => {
    const eight = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, aggregation: 4 }));
    expect(check({ ports: eight })).toBeNull();
  });
});
