import { describe, expect, it } from 'vitest';
import {
  DEVICE_TYPES,
  DeviceStatus,
  deviceStatusDisplay,
  isBusyStatus,
  isOfflineStatus,
  nextRebootState,
  RebootState,
  SimpleStatus,
  TopoDeviceType,
  TopologyNodeType,
  toSimpleStatus,
} from './device.ts';

describe('device status codes', () => {
  it('have the numbers of SPEC.md §4', () => {
    expect(DeviceStatus).toEqual({
      OFFLINE: 0,
      ONLINE: 1,
      UPGRADE_DONE: 2,
      UPGRADING: 3,
      UPLOADING: 4,
      UPLOAD_SUCCESS: 5,
      UPLOAD_FAILED: 6,
      ONLINE_NOT_SAVED: 7,
      REBOOTING: 8,
      OFFLINE_VARIANT: 9,
    });
  });

  it.each([
    [0, 'error'],
    [1, 'success'],
    [2, 'success'],
    [3, 'error'],
    [4, 'success'],
    [5, 'success'],
    [6, 'success'],
    [7, 'success'],
    [8, 'warning'],
    [9, 'error'],
    [42, 'error'],
  ])('status %i displays as %s', (status, display) => expect(deviceStatusDisplay(status)).toBe(display));

  it.each([
    [0, SimpleStatus.OFFLINE],
    [1, SimpleStatus.ONLINE],
    [2, SimpleStatus.ONLINE],
    [3, SimpleStatus.UPGRADE],
    [4, SimpleStatus.ONLINE],
    [5, SimpleStatus.ONLINE],
    [6, SimpleStatus.ONLINE],
    [7, SimpleStatus.ONLINE],
    [8, SimpleStatus.REBOOT],
    [9, SimpleStatus.OFFLINE],
    [-1, SimpleStatus.OFFLINE],
  ])('status %i folds to %s', (status, simple) => expect(toSimpleStatus(status)).toBe(simple));

  it('busy and offline helpers', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter(isBusyStatus)).toEqual([3, 8]);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter(isOfflineStatus)).toEqual([0, 9]);
  });
});

describe('reboot flow', () => {
  it('goes reboot → rebooting → rebooted and stays', () => {
    expect(nextRebootState(RebootState.REBOOT)).toBe('rebooting');
    expect(nextRebootState(RebootState.REBOOTING)).toBe('rebooted');
    expect(nextRebootState(RebootState.REBOOTED)).toBe('rebooted');
  });
});

describe('device and topology types', () => {
  it('lists the eight device types', () => {
    expect(DEVICE_TYPES).toEqual(['router', 'ap', 'switch', 'mesh', 'v7', 'wrouter', 'nvr', 'cpe']);
  });
  it('topology node types include device and extra types', () => {
    const values = Object.values(TopologyNodeType);
    expect(values).toContain('ap');
    expect(values).toContain('internet');
    expect(values).toContain('wired_ap_has_child');
    expect(values).toHaveLength(19);
  });
  it('topology device-type codes run from -1 to 12', () => {
    expect(TopoDeviceType.NO_CHANGE).toBe(-1);
    expect(TopoDeviceType.NONE).toBe(1);
    expect(TopoDeviceType.IP_PHONE).toBe(12);
    expect(Object.values(TopoDeviceType).sort((a, b) => a - b)).toEqual([
      -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
  });
});
