import { CompressOutlined, ExpandOutlined } from '@ant-design/icons';
import {
  formatRate,
  LayoutDirection,
  SearchField,
  type TopologyEdgeView,
  type TopologyNodeView,
  topologyNodeMatches,
} from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import {
  Background,
  Controls,
  type Edge,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Alert, Button, Input, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { storage } from '../../storage/storage.ts';
import { DeviceDrawer } from '../devices/DeviceDrawer.tsx';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { topologyApi, topologyKey } from './api.ts';
import { Legend } from './Legend.tsx';
import { NodePanel } from './NodePanel.tsx';
import { type TopoFlowNode, TopoNode } from './TopoNode.tsx';
import { useLayout } from './useLayout.ts';

const TIP = 'topology';
const NODE_TYPES = { topo: TopoNode };

/** Mbit/s as the edge shows it: 1000 → "1 Gbps". */
const speedText = (mbps: number) => formatRate(mbps * 1_000_000, 1);

/**
 * /manage/visualization/topo (Beta): the topology the devices report (issue 13, decision 0050),
 * drawn with React Flow and laid out by elkjs in a Web Worker, horizontally or vertically. Status
 * colours per SPEC.md §4, speed and PoE on the links, clients on the APs; zoom, pan, fit and
 * fullscreen; search by the §3 filter fields; a click opens the device drawer, or a folded group.
 * Live: a device's status or a link change refetches the graph (the live events socket).
 */
export function TopologyPage() {
  const { t } = useTranslation();
  const project = useCurrentProject();
  const title = t('route.topology');
  if (!project) return <NoProject title={title} />;
  return (
    <ReactFlowProvider>
      <TopologyView projectId={project.id} writable={canWrite(project)} title={title} />
    </ReactFlowProvider>
  );
}

function TopologyView({
  projectId,
  writable,
  title,
}: {
  projectId: number;
  writable: boolean;
  title: string;
}) {
  const { t } = useTranslation();
  useLiveDeviceEvents(projectId);
  const query = useQuery({ queryKey: topologyKey(projectId), queryFn: () => topologyApi.get(projectId) });
  const [direction, setDirection] = useState<LayoutDirection>(LayoutDirection.VERTICAL);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [field, setField] = useState<SearchField>(SearchField.NAME);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [drawerSn, setDrawerSn] = useState<string | null>(null);
  const [topoFull, setTopoFull] = useState(false);
  const [tipShown, setTipShown] = useState(() => !storage.getTopoTips().includes(TIP));
  const flow = useReactFlow();

  const graph = query.data;
  const { nodes, edges } = useMemo(
    () => visible(graph?.nodes ?? [], graph?.edges ?? [], expanded),
    [graph, expanded],
  );
  const layout = useLayout(nodes, edges, direction);
  const matched = useMemo(
    () =>
      new Set(
        search.trim() ? nodes.filter((n) => topologyNodeMatches(n, field, search)).map((n) => n.id) : [],
      ),
    [nodes, field, search],
  );

  const horizontal = direction === LayoutDirection.HORIZONTAL;
  const flowNodes: TopoFlowNode[] = useMemo(
    () =>
      layout
        ? nodes.map((n) => ({
            id: n.id,
            type: 'topo',
            position: layout.positions[n.id] ?? { x: 0, y: 0 },
            data: { node: n, horizontal, matched: matched.has(n.id), selected: selected === n.id },
            draggable: false,
            connectable: false,
            ariaLabel: `${t(`topology.kind.${n.kind}`)} ${n.name}`,
          }))
        : [],
    [layout, nodes, horizontal, matched, selected, t],
  );
  const flowEdges: Edge[] = useMemo(() => edges.map((e) => flowEdge(e, t)), [edges, t]);

  // Fit the view when a new layout lands (first load, direction, a group opened).
  const shape = layout?.shape;
  useEffect(() => {
    if (shape !== undefined) requestAnimationFrame(() => void flow.fitView({ padding: 0.1, duration: 0 }));
  }, [shape, flow]);

  useEffect(() => {
    if (!topoFull) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setTopoFull(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [topoFull]);

  const runSearch = useCallback(
    (text: string) => {
      setSearch(text);
      const ids = nodes.filter((n) => topologyNodeMatches(n, field, text)).map((n) => n.id);
      if (ids.length)
        void flow.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.4, duration: 300, maxZoom: 1.2 });
    },
    [nodes, field, flow],
  );

  const onNodeClick = useCallback((_: unknown, n: TopoFlowNode) => {
    const node = n.data.node;
    if (node.members !== null) {
      setExpanded((prev) => new Set([...prev, node.id]));
      return;
    }
    setSelected(node.id);
    if (node.sn) setDrawerSn(node.sn);
  }, []);

  const folds = (graph?.nodes ?? []).filter((n) => n.members !== null);
  const selectedNode = graph?.nodes.find((n) => n.id === selected) ?? null;
  const devices = (graph?.nodes ?? []).filter((n) => n.sn !== null).length;

  return (
    <div data-testid="topology-page">
      <PageTitle title={title} extra={<Tag color="purple">{t('topology.beta')}</Tag>} />
      {tipShown && (
        <Alert
          type="info"
          showIcon
          closable
          data-testid="topology-tip"
          message={t('topology.tipTitle')}
          description={t('topology.tip')}
          closeIcon={<span>{t('topology.tipOk')}</span>}
          onClose={() => {
            storage.setTopoTips([...storage.getTopoTips().filter((x) => x !== TIP), TIP]);
            setTipShown(false);
          }}
          style={{ marginBottom: 12 }}
        />
      )}
      {graph?.truncated && (
        <Alert type="warning" showIcon message={t('topology.truncated')} style={{ marginBottom: 12 }} />
      )}
      <div
        data-testid="topology-frame"
        style={
          topoFull
            ? {
                position: 'fixed',
                inset: 0,
                zIndex: 1000,
                background: '#fff',
                padding: 12,
                display: 'flex',
                flexDirection: 'column',
              }
            : { display: 'flex', flexDirection: 'column' }
        }
      >
        <Space wrap style={{ marginBottom: 8 }}>
          <Segmented
            aria-label={t('topology.direction')}
            data-testid="topology-direction"
            value={direction}
            onChange={(v) => setDirection(v as LayoutDirection)}
            options={[
              { value: LayoutDirection.VERTICAL, label: t('topology.vertical') },
              { value: LayoutDirection.HORIZONTAL, label: t('topology.horizontal') },
            ]}
          />
          <Space.Compact>
            <Select
              aria-label={t('topology.searchField')}
              data-testid="topology-search-field"
              value={field}
              onChange={setField}
              style={{ width: 96 }}
              options={Object.values(SearchField).map((f) => ({ value: f, label: t(`topology.field.${f}`) }))}
            />
            <Input.Search
              aria-label={t('topology.searchPlaceholder')}
              data-testid="topology-search"
              placeholder={t('topology.searchPlaceholder')}
              allowClear
              onSearch={runSearch}
              style={{ width: 200 }}
            />
          </Space.Compact>
          {folds.length > 0 && (
            <Button
              data-testid="topology-expand-all"
              onClick={() => setExpanded(expanded.size ? new Set() : new Set(folds.map((f) => f.id)))}
            >
              {expanded.size ? t('topology.collapseAll') : t('topology.expandAll')}
            </Button>
          )}
          <Button
            data-testid="topology-fullscreen"
            icon={topoFull ? <CompressOutlined /> : <ExpandOutlined />}
            onClick={() => setTopoFull(!topoFull)}
          >
            {topoFull ? t('topology.exitFullscreen') : t('topology.fullscreen')}
          </Button>
        </Space>
        <Space wrap size={12} style={{ marginBottom: 8 }}>
          {graph && (
            <Typography.Text type="secondary" data-testid="topology-summary">
              {t('topology.summary', { devices, nodes: nodes.length, edges: edges.length })}
            </Typography.Text>
          )}
          {layout && nodes.length > 0 && (
            <Typography.Text
              type="secondary"
              data-testid="topology-layout-ms"
              data-ms={Math.round(layout.ms)}
            >
              {t('topology.layoutMs', { ms: Math.round(layout.ms) })}
            </Typography.Text>
          )}
          {search.trim() && (
            <Typography.Text data-testid="topology-found" role="status">
              {matched.size ? t('topology.found', { count: matched.size }) : t('topology.notFound')}
            </Typography.Text>
          )}
        </Space>
        {query.isLoading || !graph ? (
          <Skeleton active />
        ) : graph.nodes.length === 0 ? (
          <Alert type="info" showIcon message={t('topology.empty')} />
        ) : (
          <div
            data-testid="topology-canvas"
            data-laid-out={layout ? 'yes' : 'no'}
            style={{
              height: topoFull ? undefined : 'max(420px, calc(100vh - 330px))',
              flex: topoFull ? 1 : undefined,
              border: '1px solid #d9d9d9',
              borderRadius: 8,
            }}
          >
            <ReactFlow
              aria-label={t('topology.canvas')}
              nodes={flowNodes}
              edges={flowEdges}
              nodeTypes={NODE_TYPES}
              onNodeClick={onNodeClick}
              nodesDraggable={false}
              nodesConnectable={false}
              minZoom={0.05}
              maxZoom={2}
              onlyRenderVisibleElements
              proOptions={{ hideAttribution: true }}
            >
              <Background />
              <Controls showInteractive={false} />
            </ReactFlow>
          </div>
        )}
        <Legend />
      </div>
      {selectedNode && (
        <NodePanel
          projectId={projectId}
          node={selectedNode}
          writable={writable}
          onOpen={(sn) => setDrawerSn(sn)}
          onClose={() => setSelected(null)}
        />
      )}
      <DeviceDrawer
        projectId={projectId}
        sn={drawerSn}
        writable={writable}
        onClose={() => setDrawerSn(null)}
      />
    </div>
  );
}

/** The nodes and edges shown: folded groups closed unless opened (then their members instead). */
function visible(
  nodes: readonly TopologyNodeView[],
  edges: readonly TopologyEdgeView[],
  expanded: ReadonlySet<string>,
): { nodes: TopologyNodeView[]; edges: TopologyEdgeView[] } {
  const shown = nodes.filter((n) =>
    n.members !== null ? !expanded.has(n.id) : n.group === null || expanded.has(n.group),
  );
  const ids = new Set(shown.map((n) => n.id));
  return { nodes: shown, edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
}

function flowEdge(e: TopologyEdgeView, t: (key: string, options?: Record<string, unknown>) => string): Edge {
  const parts = e.up ? [speedText(e.speed)] : [t('topology.down')];
  if (e.poe !== null) parts.push(`PoE ${e.poe} W`);
  if (e.rssi !== null) parts.push(`${e.rssi} dBm`);
  const colour = e.up ? '#595959' : '#a8071a';
  return {
    id: e.id,
    source: e.source,
    target: e.target,
    label: parts.join(' · '),
    labelStyle: { fontSize: 11, fill: '#262626' },
    labelBgStyle: { fill: '#fff' },
    labelBgPadding: [4, 2],
    type: 'default',
    animated: e.medium !== 'wired' && e.up,
    markerEnd: { type: MarkerType.ArrowClosed, color: colour },
    style: {
      stroke: colour,
      strokeWidth: e.speed >= 1000 ? 2 : 1.5,
      strokeDasharray: e.redundant ? '6 4' : e.medium !== 'wired' ? '2 4' : !e.up ? '4 3' : undefined,
    },
    ariaLabel: `${e.source} → ${e.target}: ${parts.join(', ')}`,
  };
}
