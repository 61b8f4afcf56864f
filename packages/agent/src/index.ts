export {
  admitCommand,
  DeviceCore,
  type Link,
  UPGRADE_DONE_SECONDS,
  UPGRADE_DOWNLOAD_SECONDS,
} from './core.ts';
export { type DeviceLink, type DeviceOptions, resolveModel, SimulatedDevice, startDevice } from './device.ts';
export {
  Fleet,
  type FleetDeviceSpec,
  type FleetOptions,
  fleetSn,
  type PlannedDevice,
  planFleet,
  startFleet,
  TYPE_CODES,
} from './fleet.ts';
export { INCIDENTS, type Incident, type IncidentOptions, triggerIncident } from './incidents.ts';
export { clearRetained, connectPacket, LeanMqttLink, publishPacket } from './lean.ts';
export { MqttLink } from './link.ts';
export {
  bssidOf,
  type Campus,
  type CampusOptions,
  campus,
  type ForeignAp,
  type NoiseSource,
  type Position,
  type RadioNode,
  type RadioTuning,
  RadioWorld,
  type Wall,
} from './radio.ts';
export { ConfigStore, FACTORY_PASSWORD } from './store.ts';
export { ClientWorld, diurnal, type Station } from './world.ts';
