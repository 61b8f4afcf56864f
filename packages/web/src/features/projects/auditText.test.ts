import type { AuditView } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { auditSubject } from './auditText.ts';

const row = (over: Partial<AuditView>): AuditView => ({
  id: 1,
  at: '2026-01-01T00:00:00Z',
  account: 'a@example.com',
  action: 'create',
  entity: 'project',
  entityId: '1000001',
  before: null,
  after: null,
  ...over,
});

describe('activity rows name what they are about', () => {
  it('a project by its name, not its id', () => {
    expect(auditSubject(row({ after: { name: 'Hotel A' } }), new Map())).toBe('Hotel A');
    expect(auditSubject(row({ action: 'delete', before: { name: 'Old' } }), new Map())).toBe('Old');
  });

  it('a device by its name, else the list name, else model and SN tail', () => {
    const dev = { entity: 'device', entityId: 'POOLAP0000000001' };
    expect(auditSubject(row({ ...dev, after: { name: 'Lobby AP', model: 'BA-W1200C' } }), new Map())).toBe(
      'Lobby AP',
    );
    expect(
      auditSubject(
        row({ ...dev, action: 'reboot', after: { params: {} } }),
        new Map([['POOLAP0000000001', 'Hall']]),
      ),
    ).toBe('Hall');
    expect(auditSubject(row({ ...dev, after: { name: '', model: 'BA-W1200C' } }), new Map())).toBe(
      'BA-W1200C-000001',
    );
    expect(auditSubject(row({ ...dev, action: 'reboot' }), new Map())).toBe('POOLAP0000000001');
  });

  it('a share by its account, a firmware by its file', () => {
    expect(
      auditSubject(row({ entity: 'share', entityId: '7', after: { account: 'b@x.io' } }), new Map()),
    ).toBe('b@x.io');
    expect(
      auditSubject(row({ entity: 'firmware', entityId: '3', after: { fileName: 'fw.bin' } }), new Map()),
    ).toBe('fw.bin');
  });
});
