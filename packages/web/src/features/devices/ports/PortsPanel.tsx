import { modelInfo, type SwitchConfig, type SwitchPort, type SwitchView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Progress,
  Space,
  Steps,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../../state/feedback.ts';
import { withLoadState } from '../../../state/store.ts';
import { switchApi, switchKey } from './api.ts';
import { PortModal } from './PortModal.tsx';
import { SwitchSettings } from './SwitchSettings.tsx';
import { formatVlanList } from './vlanText.ts';

interface Row extends SwitchPort {
  type: string;
  maxSpeed: number;
  live: SwitchView['live'][number] | undefined;
}

/**
 * The Ports panel of a switch in the device drawer (/manage/devconf; docs/decisions/0039): the port
 * table with what the switch reports, editing a port, QVLAN / management VLAN / IP, the PoE budget
 * used and remaining, and the saved revision's way from pending to applied.
 */
export function PortsPanel({
  projectId,
  sn,
  writable,
}: {
  projectId: number;
  sn: string;
  writable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<SwitchPort | null>(null);
  const query = useQuery({
    queryKey: switchKey(projectId, sn),
    queryFn: () => switchApi.get(projectId, sn),
    // Follows a saved revision until the switch has applied it; then the live ports every 10 s.
    refetchInterval: (q) => (q.state.data?.configStatus === 'pending' ? 1000 : 10_000),
  });
  const view = query.data;
  const info = view ? modelInfo(view.model) : undefined;

  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  if (!view || !info) return null;

  const save = async (section: SwitchConfig): Promise<boolean> => {
    try {
      const next = await withLoadState('saving', () =>
        switchApi.save(projectId, sn, { expectedRevision: view.revision, switch: section }),
      );
      queryClient.setQueryData(switchKey(projectId, sn), next);
      showSuccess(t('switchPorts.saved', { revision: next.revision }));
      return true;
    } catch (e) {
      showError(errorText(e));
      void query.refetch();
      return false;
    }
  };

  const blocked =
    view.blocked !== null
      ? t(`switchPorts.blocked.${view.blocked}`, { defaultValue: String(view.blocked) })
      : null;
  const canWrite = writable && blocked === null;

  const rows: Row[] = view.switch.ports.map((p) => {
    const spec = view.ports.find((s) => s.id === p.id)!;
    return { ...p, type: spec.type, maxSpeed: spec.maxSpeed, live: view.live.find((l) => l.id === p.id) };
  });

  const linkOf = (r: Row) => (!r.enabled ? 'off' : r.live?.link ? 'up' : 'down');
  const columns: TableColumnsType<Row> = [
    {
      title: t('switchPorts.col.port'),
      dataIndex: 'id',
      sorter: (a, b) => a.id - b.id,
      defaultSortOrder: 'ascend',
      render: (id: number, r) => (
        <span>
          {id}{' '}
          <Typography.Text type="secondary">
            {t(`switchPorts.media.${r.type}`, { defaultValue: r.type })}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('switchPorts.col.name'), dataIndex: 'name', render: (v: string) => v || t('common.none') },
    {
      title: t('switchPorts.col.link'),
      key: 'link',
      filters: (['up', 'down', 'off'] as const).map((v) => ({ text: t(`switchPorts.link.${v}`), value: v })),
      onFilter: (value, r) => linkOf(r) === value,
      render: (_, r) => {
        const link = linkOf(r);
        return (
          <Tag
            color={link === 'up' ? 'green' : link === 'off' ? 'default' : 'orange'}
            data-testid={`port-link-${r.id}`}
          >
            {t(`switchPorts.link.${link}`)}
            {link === 'up' && r.live?.speed ? ` ${r.live.speed}M` : ''}
          </Tag>
        );
      },
    },
    {
      title: t('switchPorts.col.mode'),
      dataIndex: 'mode',
      filters: [
        { text: t('switchPorts.access'), value: 'access' },
        { text: t('switchPorts.trunk'), value: 'trunk' },
      ],
      onFilter: (value, r) => r.mode === value,
      render: (v: string) => t(`switchPorts.${v}`),
    },
    { title: t('switchPorts.col.pvid'), dataIndex: 'pvid', sorter: (a, b) => a.pvid - b.pvid },
    {
      title: t('switchPorts.col.vlans'),
      key: 'vlans',
      render: (_, r) =>
        r.mode === 'trunk' ? formatVlanList(r.allowed) || t('common.none') : t('common.none'),
    },
    {
      title: t('switchPorts.col.aggregation'),
      dataIndex: 'aggregation',
      render: (v: number | null) => (v ? t('switchPorts.group', { n: v }) : t('common.none')),
    },
    {
      title: t('switchPorts.col.poe'),
      key: 'poe',
      render: (_, r) =>
        r.poe ? (
          <span data-testid={`port-poe-${r.id}`}>
            {r.poe.enabled
              ? t('switchPorts.poeOn', { w: (r.live?.poe?.power ?? 0).toFixed(1) })
              : t('switchPorts.poeOff')}
          </span>
        ) : (
          t('common.none')
        ),
    },
    {
      title: t('common.actions'),
      key: 'edit',
      render: (_, r) => (
        <Button
          size="small"
          onClick={() => setEditing(view.switch.ports.find((p) => p.id === r.id) ?? null)}
          aria-label={t('switchPorts.editPort', { id: r.id })}
          data-testid={`port-edit-${r.id}`}
        >
          {t('common.edit')}
        </Button>
      ),
    },
  ];

  const step = view.configStatus === 'applied' ? 2 : 1;
  const poe = view.poe;
  const budget = poe?.budget ?? view.poeBudget;
  const used = poe?.used ?? 0;

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="ports-panel">
      {blocked ? <Alert type="warning" showIcon message={blocked} data-testid="ports-blocked" /> : null}
      {view.revision > 0 ? (
        <Card size="small" title={t('switchPorts.progressTitle', { revision: view.revision })}>
          <Steps
            size="small"
            current={step}
            status={view.configStatus === 'failed' ? 'error' : step === 2 ? 'finish' : 'process'}
            items={[
              { title: t('switchPorts.step.saved') },
              { title: t('switchPorts.step.pending') },
              {
                title:
                  view.configStatus === 'failed'
                    ? t('switchPorts.step.failed', { code: view.configCode ?? '' })
                    : t('switchPorts.step.applied'),
              },
            ]}
          />
          <Tag
            color={
              view.configStatus === 'applied' ? 'green' : view.configStatus === 'failed' ? 'red' : 'orange'
            }
            data-testid="ports-config-status"
            style={{ marginTop: 8 }}
          >
            {t(`switchPorts.status.${view.configStatus}`, {
              revision: view.revision,
              reported: view.reportedRevision,
            })}
          </Tag>
        </Card>
      ) : null}
      {budget > 0 ? (
        <Card size="small" title={t('switchPorts.poeTitle')}>
          <Progress
            percent={budget > 0 ? Math.min(100, Math.round((used / budget) * 100)) : 0}
            format={() => t('switchPorts.poeUsed', { used: used.toFixed(1), budget })}
            aria-label={t('switchPorts.poeTitle')}
          />
          <span data-testid="poe-remaining">
            {t('switchPorts.poeRemaining', { remaining: (poe?.remaining ?? budget).toFixed(1) })}
          </span>
        </Card>
      ) : null}
      <Table<Row>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="ports-table"
      />
      <Card size="small" title={t('switchPorts.settingsTitle')}>
        <SwitchSettings
          section={view.switch}
          info={info}
          writable={canWrite}
          onSave={(settings) => save({ ...view.switch, ...settings })}
        />
      </Card>
      {editing ? (
        <PortModal
          port={editing}
          section={view.switch}
          info={info}
          writable={canWrite}
          onCancel={() => setEditing(null)}
          onSave={async (port) => {
            const ok = await save({
              ...view.switch,
              ports: view.switch.ports.map((p) => (p.id === port.id ? port : p)),
            });
            if (ok) setEditing(null);
            return ok;
          }}
        />
      ) : null}
    </Space>
  );
}
