import {
  AppError,
  Codes,
  parseOrThrow,
  TOPOLOGY_MAX_NODES,
  TopoDeviceType,
  TopologyTypeBody,
  type TopologyTypeView,
  type TopologyView,
} from '@beacon/protocol';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { deviceLinks, deviceState, devices, topologyNodeTypes } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { assembleTopology, type GraphDevice, type StoredPort } from './graph.ts';

/**
 * The project's topology (issue 13, decision 0050): its devices, what they last reported about
 * their links (`device_links`, written by ingest.ts) and the user's device-type codes, assembled by
 * graph.ts. Anyone who may see the project reads it; a device-type code is a project write.
 */

/** Gateways first, then switches, so that a cut graph keeps the top of the network. */
const TYPE_ORDER = sql`case ${devices.type} when 'router' then 0 when 'wrouter' then 1 when 'v7' then 1
  when 'mesh' then 2 when 'switch' then 3 when 'nvr' then 4 else 5 end`;

async function readGraph(db: DbOrTx, projectId: number): Promise<TopologyView> {
  const rows = await db
    .select({
      sn: devices.sn,
      name: devices.name,
      remark: devices.remark,
      model: devices.model,
      type: devices.type,
      mac: devices.mac,
      ip: deviceState.ip,
      status: deviceState.status,
      clientCount: deviceState.clientCount,
      uplinkSn: deviceState.uplinkSn,
      uplinkPort: deviceState.uplinkPort,
      meshRole: deviceState.meshRole,
      ports: deviceState.ports,
      links: deviceLinks.links,
      internet: deviceLinks.internet,
    })
    .from(devices)
    .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
    .leftJoin(deviceLinks, eq(deviceLinks.sn, devices.sn))
    .where(eq(devices.projectId, projectId))
    .orderBy(TYPE_ORDER, asc(devices.sn))
    .limit(TOPOLOGY_MAX_NODES + 1);
  const overrides = await db
    .select({ node: topologyNodeTypes.node, code: topologyNodeTypes.code })
    .from(topologyNodeTypes)
    .where(eq(topologyNodeTypes.projectId, projectId));
  const input: GraphDevice[] = rows.map((r) => ({
    sn: r.sn,
    name: r.name || r.remark,
    model: r.model,
    type: r.type,
    mac: r.mac,
    ip: r.ip,
    status: r.status,
    clientCount: r.clientCount,
    uplinkSn: r.uplinkSn,
    uplinkPort: r.uplinkPort,
    meshRole: r.meshRole,
    ports: (Array.isArray(r.ports) ? r.ports : []) as StoredPort[],
    links: r.links,
    internet: r.internet,
  }));
  return assembleTopology(input, new Map(overrides.map((o) => [o.node, o.code])));
}

export async function getTopology(deps: Deps, caller: WriteCaller, projectId: number): Promise<TopologyView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return readGraph(db, projectId);
}

/** Sets (1 to 12) or clears (-1) the user's device-type code of a node the project's topology holds. */
export async function setNodeType(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  input: unknown,
): Promise<TopologyTypeView> {
  const body = parseOrThrow(TopologyTypeBody, input);
  return withProjectWrite(deps, caller, projectId, async (write) => {
    const graph = await readGraph(write.tx, projectId);
    if (!graph.nodes.some((n) => n.id === body.node && (n.sn !== null || n.mac !== null))) {
      throw new AppError(Codes.TOPOLOGY_NODE_UNKNOWN);
    }
    const where = and(eq(topologyNodeTypes.projectId, projectId), eq(topologyNodeTypes.node, body.node));
    const [before] = await write.tx
      .select({ code: topologyNodeTypes.code })
      .from(topologyNodeTypes)
      .where(where);
    if (body.code === TopoDeviceType.NO_CHANGE) {
      await write.tx.delete(topologyNodeTypes).where(where);
    } else {
      await write.tx
        .insert(topologyNodeTypes)
        .values({ projectId, node: body.node, code: body.code, updatedAt: write.now })
        .onConflictDoUpdate({
          target: [topologyNodeTypes.projectId, topologyNodeTypes.node],
          set: { code: body.code, updatedAt: write.now },
        });
    }
    write.audit({
      action: 'update',
      entity: 'topology-node-type',
      entityId: body.node,
      before: { code: before?.code ?? TopoDeviceType.NO_CHANGE },
      after: { code: body.code },
    });
    write.publish({ type: 'topology.changed', projectId, sns: [], at: write.now.toISOString() });
    return { node: body.node, code: body.code };
  });
}
