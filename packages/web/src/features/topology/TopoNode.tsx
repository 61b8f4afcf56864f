import { deviceStatusDisplay, StatusDisplay, type TopologyNodeView } from '@beacon/protocol';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { NODE_HEIGHT, NODE_WIDTH } from './elkGraph.ts';

/** SPEC.md §4 display colours (WCAG AA on white as borders and text), grey for no status. */
export const TOPO_STATUS_COLOURS: Record<StatusDisplay | 'none', string> = {
  [StatusDisplay.SUCCESS]: '#237804',
  [StatusDisplay.ERROR]: '#a8071a',
  [StatusDisplay.WARNING]: '#ad4e00',
  none: '#595959',
};

export const statusKey = (n: TopologyNodeView): StatusDisplay | 'none' =>
  n.status === null ? 'none' : deviceStatusDisplay(n.status);

export interface TopoNodeData extends Record<string, unknown> {
  node: TopologyNodeView;
  horizontal: boolean;
  matched: boolean;
  selected: boolean;
}
export type TopoFlowNode = Node<TopoNodeData, 'topo'>;

/** One node of the topology: type, status, name, model and IP, clients on APs. */
export function TopoNode({ data }: NodeProps<TopoFlowNode>) {
  const { t } = useTranslation();
  const { node, horizontal, matched, selected } = data;
  const key = statusKey(node);
  const colour = TOPO_STATUS_COLOURS[key];
  const kind =
    node.typeCode !== null ? t(`topology.code.${node.typeCode}`) : t(`topology.kind.${node.kind}`, node.kind);
  const status =
    node.kind === 'internet'
      ? t(node.status === 1 ? 'topology.up' : 'topology.down')
      : node.status === null
        ? ''
        : t(`devices.status.${node.status}`, { defaultValue: String(node.status) });
  const fold = node.members !== null;
  const sub = fold
    ? t('topology.expand', { count: node.members ?? 0 })
    : [node.model, node.ip].filter(Boolean).join(' · ') || node.mac || '';
  return (
    <div
      data-testid={`topo-node-${node.id}`}
      data-status={key}
      data-kind={node.kind}
      style={{
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        boxSizing: 'border-box',
        background: matched ? '#fffbe6' : '#fff',
        border: `2px solid ${colour}`,
        borderStyle: fold ? 'double' : 'solid',
        borderWidth: fold ? 4 : 2,
        outline: selected ? '3px solid #0958d9' : matched ? '3px solid #d48806' : undefined,
        outlineOffset: 2,
        borderRadius: 8,
        padding: '4px 8px',
        fontSize: 12,
        lineHeight: '16px',
        color: '#262626',
        cursor: 'pointer',
      }}
    >
      <Handle type="target" position={horizontal ? Position.Left : Position.Top} isConnectable={false} />
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 4 }}>
        <span style={{ color: '#434343' }}>{kind}</span>
        {status && <span style={{ color: colour, fontWeight: 600 }}>● {status}</span>}
      </div>
      <div
        style={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        title={node.name}
      >
        {fold ? t(`topology.fold.${node.kind}`, { count: node.members ?? 0 }) : node.name}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 4, color: '#434343' }}>
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{sub}</span>
        {node.clients !== null && (
          <span data-testid={`topo-clients-${node.id}`} style={{ whiteSpace: 'nowrap' }}>
            {t('topology.clients', { count: node.clients })}
          </span>
        )}
      </div>
      <Handle type="source" position={horizontal ? Position.Right : Position.Bottom} isConnectable={false} />
    </div>
  );
}
