import { describe, expect, it } from 'vitest';
import { DeviceMode, ManagementChannel, ManagementMode, PlatformKind } from './device.ts';
import { LIMITS } from './limits.ts';
import { DHCP_POOL_LEASE_PRESETS, Protocol, TrafficUnit } from './network.ts';
import { AlarmReadState, LOG_RETENTION_DAYS, STATUS_CHART_RANGE_HOURS } from './tools.ts';

describe('LIMITS of SPEC.md §5 and §9', () => {
  it.each([
    ['DEVICES_PER_IMPORT', 500],
    ['WIRELESS_POLICIES', 32],
    ['WIFI_SCHEDULES', 4],
    ['VLANS_PER_ADD', 100],
    ['BLACKLIST_ITEMS', 100],
    ['CUSTOM_SCENARIOS', 20],
    ['DATA_SCREEN_COUNTRIES', 5],
    ['CLOUD_BACKUPS', 128],
    ['BACKUP_INTERVAL_MINUTES', 3],
    ['SOLUTION_ACCESS_SWITCHES', 99],
    ['SOLUTION_CORE_SWITCHES', 99],
    ['SOLUTION_APS', 999],
    ['LOGS_PER_DOWNLOAD', 50_000],
    ['OPTIMISATION_LOG_ENTRIES', 20],
    ['IMAGE_MAX_BYTES', 10 * 1024 * 1024],
    ['FIRMWARE_MAX_BYTES', 40 * 1024 * 1024],
    ['REBOOT_SECONDS', 60],
    ['RESET_SECONDS', 180],
    ['UPGRADE_SECONDS', 300],
    ['MODE_SWITCH_SECONDS', 120],
    ['POE_REBOOT_SECONDS', 120],
    ['COUNTRY_CHANGE_SECONDS', 180],
    ['CONFIG_SAVE_MIN_SECONDS', 5],
    ['CONFIG_SAVE_MAX_SECONDS', 12],
    ['ALL_DEVICE_WIFI_NETWORKS', 7],
    ['SPECIFIED_DEVICE_WIFI_NETWORKS', 30],
    ['GUEST_WIFI_NETWORKS', 1],
    ['CLIENTS_PER_BAND', 128],
    ['SHARE_READ_ONLY_MAX', 8],
    ['SHARE_READ_WRITE_MAX', 32],
    ['PERMANENT_READ_WRITE_MANAGERS', 3],
    ['MANAGEABLE_PER_PROJECT', 11],
    ['TX_POWER_MIN', 8],
    ['TX_POWER_MAX', 29],
    ['ACCESS_THRESHOLD_MIN', -90],
    ['ACCESS_THRESHOLD_MAX', -60],
    ['VERIFICATION_ATTEMPTS', 5],
    ['LOCKOUT_MINUTES', 30],
    ['DATA_SCREEN_TITLE_MAX', 18],
    ['DATA_SCREEN_SUBTITLE_MAX', 30],
    ['IDLE_POLL_SECONDS', 3],
    ['DEFAULT_REGION_CODE', 86],
    ['DEFAULT_VLAN_MIN', 10],
    ['DEFAULT_VLAN_MAX', 4094],
  ] as const)('%s = %d', (key, value) => expect(LIMITS[key]).toBe(value));

  it('retention choices and chart ranges', () => {
    expect(LIMITS.LOG_RETENTION_DAYS).toEqual([7, 30, 90, 180]);
    expect(LOG_RETENTION_DAYS).toEqual([7, 30, 90, 180]);
    expect(Object.keys(STATUS_CHART_RANGE_HOURS)).toEqual(['12h', '24h', '72h', '7d', '30d']);
    expect(STATUS_CHART_RANGE_HOURS['30d']).toBe(720);
    expect(DHCP_POOL_LEASE_PRESETS).toEqual([30, 60, 180, 360, 720, 1440, 4320, 10080]);
  });

  it('numeric codes', () => {
    expect(TrafficUnit).toEqual({ MB: 1, GB: 2, WIRELESS: 3, TB: 4 });
    expect(DeviceMode).toEqual({ ROUTER: 0, WIFI_EXTEND: 1 });
    expect(ManagementMode).toEqual({ LOCAL: 0, CLOUD: 1 });
    expect(ManagementChannel).toEqual({ TCP: 0, MQTT: 1 });
    expect(PlatformKind).toEqual({ CLOUD: 1, LOCAL: 2 });
    expect(AlarmReadState).toEqual({ UNREAD: 0, READ: 1 });
    expect(Object.values(Protocol)).toEqual(['all', 'tcp', 'udp']);
  });
});
