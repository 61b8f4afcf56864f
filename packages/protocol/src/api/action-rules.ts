import { busyCode, COMMAND_RULES, type CommandName, MODEL_UNSUPPORTED } from '../device/commands.ts';
import { modelInfo, upgradeCheck } from '../device/models.ts';
import { isOfflineStatus, ManagementMode } from '../enums/device.ts';
import { Codes } from '../errors.ts';
import { type MaintenanceAction, RESTART_ACTIONS } from './maintenance.ts';

/**
 * Who may do what to which device now (SPEC.md §4): the server's refusal of a maintenance action
 * (maintenance/service.ts) and the web client's preview of it (disabled buttons, how many devices
 * a bulk action will refuse) read the rules from here.
 */

/** What the rules need of a device (the server's row, DeviceView and DeviceDetailView all fit). */
export interface DeviceFacts {
  sn: string;
  name?: string;
  model: string;
  status: number;
  operation: string | null;
  managementMode: number;
  firmware?: string | null;
  capabilities?: readonly string[];
}

const COMMAND_OF: Partial<Record<MaintenanceAction, CommandName>> = {
  reboot: 'reboot',
  reset: 'reset',
  upgrade: 'upgrade',
  password: 'set-password',
  locate: 'locate',
  'rate-limit': 'rate-limit',
  led: 'led',
  'poe-reboot': 'poe-reboot',
  'local-management': 'local-management',
  'cpe-mode': 'set-mode',
  'copy-config': 'apply-config',
  'reboot-schedule': 'reboot',
};

/** The device command a maintenance action sends. */
export function commandFor(action: MaintenanceAction, params: Record<string, unknown>): CommandName {
  if (action === 'remote-management') {
    return params.enabled ? 'remote-management-open' : 'remote-management-close';
  }
  return COMMAND_OF[action]!;
}

/** The server's own refusal of a device for an action (a catalogue code), or null to send it. */
export function actionRefusal(
  device: DeviceFacts,
  action: MaintenanceAction,
  params: Record<string, unknown>,
  imageVersion: string | null,
  imageModel: string | null,
  copySource: DeviceFacts | undefined,
): { code: number; message?: string } | null {
  const info = modelInfo(device.model);
  const command = commandFor(action, params);
  const rule = COMMAND_RULES[command];
  const capabilities: readonly string[] = info?.capabilities ?? device.capabilities ?? [];
  if (rule.capability && !capabilities.includes(rule.capability)) {
    return { code: MODEL_UNSUPPORTED, message: `The ${device.model} cannot do this` };
  }
  // A schedule lives in the cloud: it can be set while the device is away (it fires with 36 then).
  if (action !== 'reboot-schedule' && isOfflineStatus(device.status)) return { code: Codes.DEVICE_OFFLINE };
  const local = device.managementMode === ManagementMode.LOCAL;
  if (local && (rule.cloudOnly || action === 'reboot-schedule' || action === 'copy-config')) {
    return { code: Codes.LOCAL_MANAGE };
  }
  const busy = busyCode(device.status, device.operation);
  // An upgrading device refuses every command (the gateway refuses them too: immediateCode); a
  // schedule lives in the cloud and can still be set. Restart actions are refused while restarting
  // (5046) or carrying out another command (2010) as well.
  if (busy === Codes.UPGRADING && action !== 'reboot-schedule') return { code: busy };
  if (busy && RESTART_ACTIONS.includes(action)) return { code: busy };
  if (action === 'upgrade') {
    const target = imageVersion ?? (params.version as string);
    if (imageModel && imageModel !== device.model) {
      return {
        code: MODEL_UNSUPPORTED,
        message: `The firmware file is for the ${imageModel}, not the ${device.model}`,
      };
    }
    if (!info) return { code: Codes.UNSUPPORTED_VERSION };
    const check = upgradeCheck(info, device.firmware ?? info.firmware[0], target);
    if (check) return { code: check };
  }
  if (action === 'poe-reboot' && info) {
    const ports = params.ports as number[];
    const bad = ports.find((id) => !info.ports.some((p) => p.id === id && p.poe));
    if (bad !== undefined) return { code: Codes.FORM_DATA, message: `Port ${bad} is not a PoE port` };
  }
  if (action === 'copy-config' && copySource) {
    if (device.sn === copySource.sn)
      return { code: Codes.FORM_DATA, message: 'Choose devices other than the source' };
    if (device.model !== copySource.model) {
      return {
        code: MODEL_UNSUPPORTED,
        message: `Only devices of model ${copySource.model} can receive its configuration`,
      };
    }
  }
  return null;
}

/** Why the web client shows an action as unavailable (an i18n key under devices.blocked). */
export type BlockReason = 'readOnly' | 'model' | 'offline' | 'local' | 'busy';

/** Actions a device in local management still takes from the cloud (SPEC.md §4). */
const LOCAL_ALLOWED: readonly MaintenanceAction[] = [
  'reboot',
  'locate',
  'local-management',
  'remote-management',
];

export function capabilitiesOf(device: DeviceFacts): ReadonlySet<string> {
  return new Set<string>(modelInfo(device.model)?.capabilities ?? device.capabilities ?? []);
}

/** Why `device` cannot take `action` now, or null: the client's preview of actionRefusal. */
export function blockReason(
  action: MaintenanceAction,
  device: DeviceFacts,
  options: { writable: boolean; capability?: string },
): BlockReason | null {
  if (!options.writable) return 'readOnly';
  if (options.capability && !capabilitiesOf(device).has(options.capability)) return 'model';
  // A schedule lives in the cloud: it can be set while the device is away.
  if (isOfflineStatus(device.status) && action !== 'reboot-schedule') return 'offline';
  if (device.managementMode === 0 && !LOCAL_ALLOWED.includes(action)) return 'local';
  if (RESTART_ACTIONS.includes(action) && busyCode(device.status, device.operation) !== null) return 'busy';
  return null;
}
