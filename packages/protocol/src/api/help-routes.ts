import type { RouteContract } from './route-contract.ts';

/** The help centre's documents (server src/help/, web features/help). */
export const HELP_ROUTES = {
  /** The device protocol for device makers: docs/protocol/asyncapi.yaml (AsyncAPI 3.0, YAML). */
  deviceProtocol: { method: 'GET', path: '/help/device-protocol.yaml', raw: 'document' },
} as const satisfies Record<string, RouteContract>;
