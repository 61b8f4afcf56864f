/** SPEC.md §3 device types. */
export const DeviceType = {
  ROUTER: 'router',
  AP: 'ap',
  SWITCH: 'switch',
  MESH: 'mesh',
  /** Wireless router. */
  V7: 'v7',
  WROUTER: 'wrouter',
  NVR: 'nvr',
  CPE: 'cpe',
} as const;
export type DeviceType = (typeof DeviceType)[keyof typeof DeviceType];
export const DEVICE_TYPES: readonly DeviceType[] = Object.values(DeviceType);

/** SPEC.md §3: node types used by the topology in addition to the device types. */
export const TopologyExtraNodeType = {
  INTERNET: 'internet',
  UNKNOWN_NET: 'unknown_net',
  UNKNOWN_DEV: 'unknown_dev',
  IPC: 'ipc',
  EXPAND_IPC: 'expand_ipc',
  EXPAND_IPC_WIRELESS: 'expand_ipc_wireless',
  EXPAND_AP: 'expand_ap',
  EXPAND_CPE: 'expand_cpe',
  WIRED_AP: 'wired_ap',
  WIRED_AP_HAS_CHILD: 'wired_ap_has_child',
  WIRELESS_AP: 'wireless_ap',
} as const;
export type TopologyExtraNodeType = (typeof TopologyExtraNodeType)[keyof typeof TopologyExtraNodeType];

/** Every node type a topology graph may contain. */
export const TopologyNodeType = { ...DeviceType, ...TopologyExtraNodeType } as const;
export type TopologyNodeType = (typeof TopologyNodeType)[keyof typeof TopologyNodeType];

/** SPEC.md §3 topology device-type codes. */
export const TopoDeviceType = {
  NO_CHANGE: -1,
  NONE: 1,
  AP: 2,
  CAMERA: 3,
  UPLINK_PORT: 4,
  ROUTER: 5,
  SWITCH: 6,
  BRIDGE: 7,
  NVR: 8,
  SERVER: 9,
  PC: 10,
  PRINTER: 11,
  IP_PHONE: 12,
} as const;
export type TopoDeviceType = (typeof TopoDeviceType)[keyof typeof TopoDeviceType];

/** SPEC.md §4 device status codes. */
export const DeviceStatus = {
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
} as const;
export type DeviceStatus = (typeof DeviceStatus)[keyof typeof DeviceStatus];
export const DEVICE_STATUSES: readonly DeviceStatus[] = Object.values(DeviceStatus);

/** How a status is drawn (badge colour). */
export const StatusDisplay = { ERROR: 'error', SUCCESS: 'success', WARNING: 'warning' } as const;
export type StatusDisplay = (typeof StatusDisplay)[keyof typeof StatusDisplay];

/**
 * SPEC.md §4: offline and upgrading → error; online and the upload states → success; rebooting →
 * warning. Decisions for the codes the spec does not name:
 * - UPGRADE_DONE → success: the device is back and running the new firmware.
 * - UPLOAD_FAILED → success: it is one of the "upload states" the spec lists as success; the device
 *   itself is online, the failed transfer is reported by the upload's own result.
 * - ONLINE_NOT_SAVED → success: it is an online state (SPEC.md §4 "online … as success"); that its
 *   running configuration is not yet saved shows in its own text, not as a warning colour.
 * - OFFLINE_VARIANT → error: it is a kind of offline.
 */
export const DEVICE_STATUS_DISPLAY: Readonly<Record<DeviceStatus, StatusDisplay>> = {
  [DeviceStatus.OFFLINE]: StatusDisplay.ERROR,
  [DeviceStatus.ONLINE]: StatusDisplay.SUCCESS,
  [DeviceStatus.UPGRADE_DONE]: StatusDisplay.SUCCESS,
  [DeviceStatus.UPGRADING]: StatusDisplay.ERROR,
  [DeviceStatus.UPLOADING]: StatusDisplay.SUCCESS,
  [DeviceStatus.UPLOAD_SUCCESS]: StatusDisplay.SUCCESS,
  [DeviceStatus.UPLOAD_FAILED]: StatusDisplay.SUCCESS,
  [DeviceStatus.ONLINE_NOT_SAVED]: StatusDisplay.SUCCESS,
  [DeviceStatus.REBOOTING]: StatusDisplay.WARNING,
  [DeviceStatus.OFFLINE_VARIANT]: StatusDisplay.ERROR,
};

/** Display of a status code; unknown codes are drawn as error. */
export function deviceStatusDisplay(status: number): StatusDisplay {
  return DEVICE_STATUS_DISPLAY[status as DeviceStatus] ?? StatusDisplay.ERROR;
}

/** SPEC.md §4 the simpler status set. */
export const SimpleStatus = {
  OFFLINE: 'offline',
  ONLINE: 'online',
  UPGRADE: 'upgrade',
  REBOOT: 'reboot',
} as const;
export type SimpleStatus = (typeof SimpleStatus)[keyof typeof SimpleStatus];

/**
 * Folds a status code into the simpler set: both offline codes → offline; upgrading → upgrade;
 * rebooting → reboot; every other state has a reachable device → online. Unknown codes → offline.
 */
export function toSimpleStatus(status: number): SimpleStatus {
  switch (status) {
    case DeviceStatus.ONLINE:
    case DeviceStatus.UPGRADE_DONE:
    case DeviceStatus.UPLOADING:
    case DeviceStatus.UPLOAD_SUCCESS:
    case DeviceStatus.UPLOAD_FAILED:
    case DeviceStatus.ONLINE_NOT_SAVED:
      return SimpleStatus.ONLINE;
    case DeviceStatus.UPGRADING:
      return SimpleStatus.UPGRADE;
    case DeviceStatus.REBOOTING:
      return SimpleStatus.REBOOT;
    default:
      return SimpleStatus.OFFLINE;
  }
}

/** Every code of a reachable device (the simpler status "online"), for queries that need the list. */
export const ONLINE_STATUSES: readonly DeviceStatus[] = DEVICE_STATUSES.filter(
  (s) => toSimpleStatus(s) === SimpleStatus.ONLINE,
);

/** Offline codes (0 and its variant 9). */
export const isOfflineStatus = (status: number): boolean =>
  status === DeviceStatus.OFFLINE || status === DeviceStatus.OFFLINE_VARIANT;

/** SPEC.md §4: restart, reset and upgrade are blocked while the device is restarting or upgrading. */
export const isBusyStatus = (status: number): boolean =>
  status === DeviceStatus.REBOOTING || status === DeviceStatus.UPGRADING;

/** SPEC.md §4 reboot flow: reboot → rebooting → rebooted. */
export const RebootState = { REBOOT: 'reboot', REBOOTING: 'rebooting', REBOOTED: 'rebooted' } as const;
export type RebootState = (typeof RebootState)[keyof typeof RebootState];
export const REBOOT_FLOW: readonly RebootState[] = [
  RebootState.REBOOT,
  RebootState.REBOOTING,
  RebootState.REBOOTED,
];

/** The state after `state` in the reboot flow; rebooted is final. */
export function nextRebootState(state: RebootState): RebootState {
  const i = REBOOT_FLOW.indexOf(state);
  return REBOOT_FLOW[Math.min(i + 1, REBOOT_FLOW.length - 1)];
}

/** SPEC.md §3 device mode. */
export const DeviceMode = { ROUTER: 0, WIFI_EXTEND: 1 } as const;
export type DeviceMode = (typeof DeviceMode)[keyof typeof DeviceMode];

/** SPEC.md §3 management mode; some actions work only in cloud mode. */
export const ManagementMode = { LOCAL: 0, CLOUD: 1 } as const;
export type ManagementMode = (typeof ManagementMode)[keyof typeof ManagementMode];

/** SPEC.md §3 cable-free (mesh) role. */
export const CableFreeMode = { PRIMARY: 'primary', SECONDARY: 'secondary' } as const;
export type CableFreeMode = (typeof CableFreeMode)[keyof typeof CableFreeMode];

/** SPEC.md §4: a CPE works in AP mode or client mode; switching restarts it (about 2 minutes). */
export const CpeMode = { AP: 'ap', CLIENT: 'client' } as const;
export type CpeMode = (typeof CpeMode)[keyof typeof CpeMode];

/** SPEC.md §3 switch port type: light = SFP. */
export const PortType = { LIGHT: 'light', ELECTRICAL: 'electrical', NONE: 'none' } as const;
export type PortType = (typeof PortType)[keyof typeof PortType];

export const PortMode = { ACCESS: 'access', TRUNK: 'trunk' } as const;
export type PortMode = (typeof PortMode)[keyof typeof PortMode];

export const PortSpeedMode = { AUTO: 'auto', HALF_DUPLEX: 'half', FULL_DUPLEX: 'full' } as const;
export type PortSpeedMode = (typeof PortSpeedMode)[keyof typeof PortSpeedMode];

/** SPEC.md §4 remote management states. */
export const RemoteManageState = {
  CLOSED: 'closed',
  OBTAINING_URL: 'obtaining_url',
  OPEN: 'open',
  FAILED: 'failed',
} as const;
export type RemoteManageState = (typeof RemoteManageState)[keyof typeof RemoteManageState];

/** SPEC.md §9 management channel between device and cloud. */
export const ManagementChannel = { TCP: 0, MQTT: 1 } as const;
export type ManagementChannel = (typeof ManagementChannel)[keyof typeof ManagementChannel];

/** SPEC.md §9 platform kinds. */
export const PlatformKind = { CLOUD: 1, LOCAL: 2 } as const;
export type PlatformKind = (typeof PlatformKind)[keyof typeof PlatformKind];
