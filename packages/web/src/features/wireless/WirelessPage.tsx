import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  associatedRadios,
  LIMITS,
  WifiDeviceNote,
  type WifiDeviceView,
  type WifiPolicy,
  type WifiPolicyInput,
  WifiScope,
  WifiSyncState,
  type WifiView,
} from '@beacon/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Empty,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  type TableProps,
  Tag,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { wifiApi } from './api.ts';
import { PolicyModal } from './PolicyModal.tsx';
import { useWifi } from './useWifi.ts';

const STATUS_COLOR = { pending: 'processing', applied: 'success', failed: 'error' } as const;

function PoliciesCard({
  view,
  writable,
  onEdit,
  onDelete,
}: {
  view: WifiView;
  writable: boolean;
  onEdit(index: number | null): void;
  onDelete(policy: WifiPolicy): Promise<void>;
}) {
  const { t } = useTranslation();
  const policies = view.document.policies;
  const rows = policies.map((p, index) => ({ p, index }));
  const full = policies.length >= LIMITS.WIRELESS_POLICIES;
  const box = useRef<HTMLDivElement>(null);
  useKeyboardScroll(box, t('wifi.policiesRegion'));
  const columns: TableProps<(typeof rows)[number]>['columns'] = [
    { title: t('wifi.name'), key: 'name', render: (_, r) => r.p.name },
    {
      title: t('wifi.ssid'),
      key: 'ssid',
      render: (_, r) => (
        <Space size={4} wrap>
          <span>{r.p.ssid}</span>
          {r.p.hidden && <Tag>{t('wifi.hiddenTag')}</Tag>}
          {r.p.guest && <Tag color="blue">{t('wifi.guestTag')}</Tag>}
          {!r.p.enabled && <Tag>{t('wifi.disabledTag')}</Tag>}
        </Space>
      ),
    },
    { title: t('wifi.encryption'), key: 'enc', render: (_, r) => t(`wifi.encryptionMode.${r.p.encryption}`) },
    { title: t('wifi.bands'), key: 'bands', render: (_, r) => r.p.bands.join(', ') },
    {
      title: t('wifi.associatedRf'),
      key: 'rf',
      render: (_, r) => {
        const radios = associatedRadios(r.p, view.devices);
        return radios.length === 0
          ? t('wifi.noRadio')
          : radios.map((x) => t('wifi.radioOn', { band: x.band, count: x.devices })).join(', ');
      },
    },
    {
      title: t('wifi.scope'),
      key: 'scope',
      render: (_, r) =>
        r.p.scope === WifiScope.ALL
          ? t('wifi.scopeAll')
          : t('wifi.scopeCount', { count: r.p.devices.length }),
    },
    {
      title: t('wifi.schedule'),
      key: 'schedule',
      render: (_, r) =>
        r.p.schedule.length === 0
          ? t('wifi.alwaysOn')
          : r.p.schedule.map((s) => t('wifi.offPeriod', { start: s.start, end: s.end })).join(', '),
    },
    {
      title: t('wifi.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space>
          <Button
            size="small"
            icon={<EditOutlined />}
            disabled={!writable}
            onClick={() => onEdit(r.index)}
            aria-label={t('wifi.editNamed', { name: r.p.name })}
            data-testid={`wifi-edit-${r.index}`}
          />
          <Popconfirm
            title={t('wifi.deleteConfirm', { name: r.p.name })}
            okText={t('wifi.delete')}
            cancelText={t('wifi.cancel')}
            onConfirm={() => onDelete(r.p)}
            disabled={!writable}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!writable}
              aria-label={t('wifi.deleteNamed', { name: r.p.name })}
              data-testid={`wifi-delete-${r.index}`}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('wifi.policiesTitle', { count: policies.length, max: LIMITS.WIRELESS_POLICIES })}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!writable || full}
          onClick={() => onEdit(null)}
          data-testid="wifi-add"
        >
          {t('wifi.add')}
        </Button>
      }
    >
      <div ref={box}>
        <Table
          size="small"
          rowKey={(r) => String(r.p.id ?? r.index)}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('wifi.empty')} /> }}
          data-testid="wifi-table"
        />
      </div>
    </Card>
  );
}

function DevicesCard({ view }: { view: WifiView }) {
  const { t } = useTranslation();
  const { progress } = view;
  const names = new Map(view.document.policies.map((p) => [p.id, p.name]));
  const box = useRef<HTMLDivElement>(null);
  useKeyboardScroll(box, t('wifi.devicesRegion'));
  const columns: TableProps<WifiDeviceView>['columns'] = [
    { title: t('wifi.device'), key: 'sn', render: (_, d) => d.name || d.sn },
    { title: t('wifi.model'), dataIndex: 'model' },
    {
      title: t('wifi.sync'),
      key: 'sync',
      render: (_, d) => (
        <Tag
          color={d.sync === WifiSyncState.CONFIGURED ? 'green' : undefined}
          data-testid={`wifi-sync-${d.sn}`}
        >
          {t(d.sync === WifiSyncState.CONFIGURED ? 'wifi.configured' : 'wifi.notConfigured')}
        </Tag>
      ),
    },
    {
      title: t('wifi.configStatus'),
      key: 'status',
      render: (_, d) => (
        <Space size={4} wrap>
          <Badge
            status={STATUS_COLOR[d.status]}
            text={<span data-testid={`wifi-status-${d.sn}`}>{t(`wifi.status.${d.status}`)}</span>}
          />
          {d.note && <Tag>{t(`wifi.note.${d.note}`)}</Tag>}
          {d.code !== null && d.status === 'failed' && <Tag>{d.code}</Tag>}
        </Space>
      ),
    },
    {
      title: t('wifi.networks'),
      key: 'policies',
      render: (_, d) => d.policies.map((id) => names.get(id) ?? id).join(', ') || '—',
    },
    {
      title: t('wifi.onAir'),
      key: 'running',
      render: (_, d) => (
        <span data-testid={`wifi-running-${d.sn}`}>
          {d.note === WifiDeviceNote.OFFLINE || d.runningSsids.length === 0 ? '—' : d.runningSsids.join(', ')}
        </span>
      ),
    },
    { title: t('wifi.revision'), key: 'rev', render: (_, d) => `${d.reportedRevision} / ${d.revision}` },
  ];
  return (
    <Card size="small" title={t('wifi.devicesTitle', { revision: view.revision })} style={{ marginTop: 16 }}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Badge
          status={progress.pending > 0 ? 'processing' : 'default'}
          text={t('wifi.count.pending', { count: progress.pending })}
        />
        <Badge status="success" text={t('wifi.count.applied', { count: progress.applied })} />
        <Badge status="error" text={t('wifi.count.failed', { count: progress.failed })} />
        {progress.skipped > 0 && <Tag>{t('wifi.count.skipped', { count: progress.skipped })}</Tag>}
      </Space>
      <div ref={box}>
        <Table
          size="small"
          rowKey="sn"
          columns={columns}
          dataSource={view.devices}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('wifi.noDevices')} /> }}
          data-testid="wifi-devices-table"
        />
      </div>
    </Card>
  );
}

/** /manage/wirelessconf: the project's Wi-Fi policies and where each Wi-Fi device stands. */
export function WirelessPage() {
  const { t } = useTranslation();
  const title = t('route.wireless');
  const { project, projectId, view, loading, refresh, show } = useWifi();
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  if (!project || projectId === undefined) return <NoProject title={title} />;
  const writable = canWrite(project);

  const save = async (policy: WifiPolicyInput, index: number | null): Promise<boolean> => {
    if (!view) return false;
    try {
      const id = index === null ? undefined : view.document.policies[index]?.id;
      show(
        id === undefined
          ? await wifiApi.create(projectId, view.revision, policy)
          : await wifiApi.update(projectId, id, view.revision, policy),
      );
      showSuccess(t('wifi.saved'));
      return true;
    } catch (e) {
      showError(errorText(e));
      await refresh();
      return false;
    }
  };

  const remove = async (policy: WifiPolicy) => {
    if (!view || policy.id === undefined) return;
    try {
      show(await wifiApi.remove(projectId, policy.id, view.revision));
      showSuccess(t('wifi.deleted'));
    } catch (e) {
      showError(errorText(e));
      await refresh();
    }
  };

  return (
    <div data-testid="wifi-page">
      <PageTitle title={title} />
      {!writable && <Alert type="info" showIcon message={t('wifi.readOnly')} style={{ marginBottom: 16 }} />}
      {loading || !view ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {t('wifi.limits', { zone: view.timeZone })}
          </Typography.Paragraph>
          <PoliciesCard view={view} writable={writable} onEdit={setEditing} onDelete={remove} />
          <DevicesCard view={view} />
          <PolicyModal view={view} editing={editing} onClose={() => setEditing(undefined)} onSave={save} />
        </>
      )}
    </div>
  );
}
