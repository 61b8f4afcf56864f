import {
  AppError,
  Codes,
  type DhcpServerConfig,
  type DhcpServerView,
  type ErrorCode,
  errorMessage,
  type ModelInfo,
  modelInfo,
  type NetworkDocument,
  parseOrThrow,
  type SaveDhcpServerBody,
  SaveDhcpServerBody as SaveDhcpServerSchema,
  validateDhcpServerConfig,
} from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { defaultDeviceName } from '../devices/views.ts';
import { latestNetworkDocument, roleOf } from '../network/service.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { commitDeviceRevision } from './repository.ts';
import { switchBlocked } from './switch.ts';

/**
 * The DHCP server of a switch or an AP (issue 10 "DHCP policy", docs/decisions/0043): the
 * `dhcpServer` section of the device's own configuration document, saved as a new revision of the
 * configuration domain like the switch ports (expected-revision check 5120, audit row in the same
 * transaction, pushed after commit, re-sent by the convergence job). Refused before anything is
 * written: read-only and demo projects, a device that is neither a switch nor an AP (2), offline
 * (36), local management (76), upgrading (71), every pool rule with its code (SPEC.md §5), and a
 * VLAN where the project's network already has DHCP relay, snooping or the gateway's server (5011).
 * The save is serialised with network saves (project row locked), so the two cannot cross.
 */

const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;

async function deviceIn(db: DbOrTx, projectId: number, sn: string): Promise<DeviceRow> {
  const [row] = await selectDevices(db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sn.toUpperCase())),
  );
  if (!row) throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
  return row;
}

function serverModel(row: DeviceRow): ModelInfo {
  const info = modelInfo(row.model);
  const role = roleOf(info);
  if (!info || (role !== 'switch' && role !== 'ap')) {
    throw new AppError(
      Codes.MODEL,
      `The ${row.model} is not a switch or an AP: a gateway serves DHCP with the project's pools`,
    );
  }
  return info;
}

function refuseIfBlocked(row: DeviceRow): void {
  const code = switchBlocked(row);
  if (code !== null) throw new AppError(code, errorMessage(code));
}

function desiredDocument(deps: Deps, row: DeviceRow): Record<string, unknown> {
  return row.desiredConfig
    ? (secretsOf(deps).openDocument(row.desiredConfig) as Record<string, unknown>)
    : {};
}

function managementVlanOf(doc: Record<string, unknown>): number | null {
  const sw = doc.switch as { managementVlan?: number } | undefined;
  const v = sw?.managementVlan ?? (doc.managementVlan as number | null | undefined);
  return typeof v === 'number' ? v : null;
}

function view(deps: Deps, row: DeviceRow, network: NetworkDocument): DhcpServerView {
  const doc = desiredDocument(deps, row);
  return {
    sn: row.sn,
    name: row.name || defaultDeviceName(row.model, row.sn),
    model: row.model,
    status: row.status,
    blocked: switchBlocked(row),
    revision: row.desiredRevision,
    configStatus: row.configStatus as DhcpServerView['configStatus'],
    configCode: row.configCode,
    reportedRevision: row.reportedRevision,
    dhcpServer: (doc.dhcpServer as DhcpServerConfig | undefined) ?? null,
    managementVlan: managementVlanOf(doc),
    vlans: network.vlans.map((v) => ({
      id: v.id,
      name: v.name,
      dhcp: v.dhcpRelay ? 'relay' : v.dhcpSnooping ? 'snooping' : v.dhcp ? 'server' : 'none',
    })),
    dhcpClientCount: row.telemetryAt ? row.dhcpClientCount : null,
  };
}

/** The section's first broken rule as the error the API answers (with the field that is wrong). */
export function checkDhcpServer(
  section: DhcpServerConfig,
  network: NetworkDocument,
  managementVlan: number | null,
): void {
  const failure = validateDhcpServerConfig(section, { vlans: network.vlans, managementVlan });
  if (failure) {
    throw new AppError(failure.code as ErrorCode, failure.message, {
      [`dhcpServer.${failure.path}`]: failure.message,
    });
  }
}

export async function getDhcpServer(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
): Promise<DhcpServerView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const row = await deviceIn(db, projectId, sn);
  serverModel(row);
  return view(deps, row, await latestNetworkDocument(deps, db, projectId));
}

export async function saveDhcpServer(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
  raw: SaveDhcpServerBody,
): Promise<DhcpServerView> {
  const body = parseOrThrow(SaveDhcpServerSchema, raw);
  const { db } = deps.database;
  // Who may write, before anything about the device is looked at or asked of it.
  requireWritable(await loadProjectAccess(db, caller, projectId, { now: deps.now() }));
  const first = await deviceIn(db, projectId, sn);
  serverModel(first);
  refuseIfBlocked(first);
  checkDhcpServer(body.dhcpServer, await latestNetworkDocument(deps, db, projectId), null);

  // Before any revision the rest of the document is what the device runs (as for switch ports).
  let base: Record<string, unknown> | null = null;
  if (first.desiredRevision === 0 && body.expectedRevision === 0) {
    const outcome = await deps.gateway.commands.send(first.sn, 'get-config', {}, caller);
    if (outcome.code !== 0) throw new AppError(outcome.code as ErrorCode, outcome.message ?? undefined);
    base = (outcome.data as { document?: Record<string, unknown> } | null)?.document ?? {};
  }

  const { device, network } = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const current = await deviceIn(write.tx, projectId, sn);
      refuseIfBlocked(current);
      const document = base ?? desiredDocument(deps, current);
      // Checked again under the lock: the network as it is now, the device's management VLAN.
      const network = await latestNetworkDocument(deps, write.tx, projectId);
      checkDhcpServer(body.dhcpServer, network, managementVlanOf(document));
      const { before, device, revision } = await commitDeviceRevision(write.tx, secretsOf(deps), {
        sn: current.sn,
        projectId,
        document: { ...document, dhcpServer: body.dhcpServer },
        author: caller,
        reason: body.reason || 'DHCP server changed',
        expectedRevision: body.expectedRevision,
        now: write.now,
      });
      write.audit({
        action: 'dhcp-server-save',
        entity: 'device-config',
        entityId: device.sn,
        before: { revision: before.desiredRevision, hash: before.desiredHash },
        after: { revision: revision.revision, hash: revision.hash, reason: revision.reason },
      });
      return { device, network };
    },
    // Serialised with the project's network saves (which lock the project row too).
    { lock: 'update' },
  );
  deps.gateway.commands.converge(device.sn);
  return view(deps, device, network);
}
