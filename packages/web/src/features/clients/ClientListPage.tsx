import { DisconnectOutlined, StopOutlined } from '@ant-design/icons';
import {
  CLIENT_OFFLINE_HOURS,
  ClientKind,
  type ClientView,
  type ForceOfflineView,
  FrequencyBand,
  formatBytes,
  formatDuration,
  formatRate,
} from '@beacon/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Badge,
  Button,
  Card,
  Empty,
  Input,
  Segmented,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { useInertMeasureRow } from '../../components/useInertMeasureRow.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { type ClientListParams, clientsApi, clientsKey } from './api.ts';
import { BlacklistModal } from './BlacklistModal.tsx';

const SEARCH_FIELDS = ['all', 'ip', 'mac', 'name', 'model', 'vlan'] as const;
type SearchField = (typeof SEARCH_FIELDS)[number];
const rowKey = (c: Pick<ClientView, 'sn' | 'mac'>) => `${c.sn}|${c.mac}`;

/** /manage/onlinelist: the project's online clients (SPEC.md §3 Online client), force offline, blacklist. */
export function ClientListPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const writable = canWrite(current);
  const live = useLiveDeviceEvents(projectId);
  const phone = useIsPhone();
  const queryClient = useQueryClient();
  const { modal } = AntApp.useApp();
  const [params, setParams] = useState<ClientListParams>({
    page: 1,
    pageSize: 20,
    sort: 'onlineSeconds',
    order: 'desc',
  });
  const [field, setField] = useState<SearchField>('all');
  const [term, setTerm] = useState('');
  const [selected, setSelected] = useState<ClientView[]>([]);
  const [blacklistOpen, setBlacklistOpen] = useState(false);
  const tableBox = useRef<HTMLDivElement>(null);
  useInertMeasureRow(tableBox);

  const list = useQuery({
    queryKey: [...clientsKey(projectId), 'list', params],
    queryFn: () => clientsApi.list(projectId!, params),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
  });

  // The SSIDs to filter by: those seen in the latest week (the pies of the client stats).
  const ssids = useQuery({
    queryKey: [...clientsKey(projectId), 'ssids'],
    queryFn: () => clientsApi.stats(projectId!, { range: '12h', days: 7 }),
    enabled: projectId !== undefined,
    select: (s) => s.pies.ssid.map((x) => x.key).filter((k) => k !== ''),
  });

  useEffect(() => {
    void projectId;
    setSelected([]);
  }, [projectId]);

  if (!current || projectId === undefined) return <NoProject title={t('route.clientList')} />;
  const offline = params.status === 'offline';

  const search = (value: string) => {
    const v = value.trim();
    const next: ClientListParams = {
      page: 1,
      pageSize: params.pageSize,
      sort: params.sort,
      order: params.order,
      band: params.band,
      kind: params.kind,
      ssid: params.ssid,
      status: params.status,
    };
    if (v) {
      if (field === 'all') next.q = v;
      else if (field === 'vlan') {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 4094) {
          showError(t('clients.searchNumber'));
          return;
        }
        next.vlan = n;
      } else next[field] = v;
    }
    setParams(next);
  };

  const onTableChange: TableProps<ClientView>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setParams((p) => ({
      ...p,
      page: pagination.current ?? 1,
      pageSize: pagination.pageSize ?? p.pageSize,
      sort: s?.order
        ? (String(s.columnKey) as ClientListParams['sort'])
        : p.status === 'offline'
          ? 'offlineSeconds'
          : 'onlineSeconds',
      order: s?.order ? (s.order === 'ascend' ? 'asc' : 'desc') : p.status === 'offline' ? 'asc' : 'desc',
    }));
  };
  const sortOrder = (key: string) =>
    params.sort === key ? (params.order === 'desc' ? ('descend' as const) : ('ascend' as const)) : null;

  const forceOffline = (clients: ClientView[]) =>
    modal.confirm({
      title: t('clients.forceOfflineTitle'),
      content: (
        <span data-testid="confirm-text">{t('clients.forceOfflineText', { count: clients.length })}</span>
      ),
      okText: t('clients.forceOffline'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-force-offline' } as never,
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const result: ForceOfflineView = await clientsApi.forceOffline(projectId, {
            clients: clients.map((c) => ({ sn: c.sn, mac: c.mac })),
          });
          const failed = result.results.filter((r) => r.code !== 0);
          const done = result.results.length - failed.length;
          if (done) showSuccess(t('clients.forceOfflineDone', { count: done }));
          if (failed.length) {
            showError(
              t('clients.forceOfflineFailed', {
                failed: failed.length,
                count: result.results.length,
                message: failed[0].message ?? String(failed[0].code),
              }),
            );
          }
          setSelected([]);
        } catch (e) {
          showError(errorText(e));
        } finally {
          void queryClient.invalidateQueries({ queryKey: clientsKey(projectId) });
        }
      },
    });

  const blockedTip = writable
    ? undefined
    : t(current.isDemo ? 'project.demoNoWrite' : 'project.readOnlyNoWrite');

  const columns: NonNullable<TableProps<ClientView>['columns']> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('clients.col.name'),
      fixed: phone ? undefined : 'left',
      width: 170,
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (v: string, c) => (
        <span style={{ whiteSpace: 'nowrap' }} data-testid={`client-name-${c.mac}`}>
          {v || t('common.none')}
        </span>
      ),
    },
    { key: 'ip', dataIndex: 'ip', title: t('clients.col.ip'), sorter: true, sortOrder: sortOrder('ip') },
    { key: 'mac', dataIndex: 'mac', title: t('clients.col.mac'), sorter: true, sortOrder: sortOrder('mac') },
    {
      key: 'ssid',
      dataIndex: 'ssid',
      title: t('clients.col.ssid'),
      sorter: true,
      sortOrder: sortOrder('ssid'),
      render: (v: string | null, c) => (c.wired ? <Tag>{t('clients.wired')}</Tag> : (v ?? t('common.none'))),
    },
    {
      key: 'band',
      dataIndex: 'band',
      title: t('clients.col.band'),
      sorter: true,
      sortOrder: sortOrder('band'),
      render: (v: string | null) => v ?? t('common.none'),
    },
    {
      key: 'rssi',
      dataIndex: 'rssi',
      title: t('clients.col.rssi'),
      sorter: true,
      sortOrder: sortOrder('rssi'),
      render: (v: number | null) => (v === null ? t('common.none') : `${v} dBm`),
    },
    {
      key: 'txBytes',
      dataIndex: 'txBytes',
      title: t('clients.col.sent'),
      sorter: true,
      sortOrder: sortOrder('txBytes'),
      render: (v: number) => formatBytes(v),
    },
    {
      key: 'rxBytes',
      dataIndex: 'rxBytes',
      title: t('clients.col.received'),
      sorter: true,
      sortOrder: sortOrder('rxBytes'),
      render: (v: number) => formatBytes(v),
    },
    {
      key: 'txRate',
      dataIndex: 'txRate',
      title: t('clients.col.txRate'),
      sorter: true,
      sortOrder: sortOrder('txRate'),
      render: (v: number) => formatRate(v * 1000),
    },
    {
      key: 'rxRate',
      dataIndex: 'rxRate',
      title: t('clients.col.rxRate'),
      sorter: true,
      sortOrder: sortOrder('rxRate'),
      render: (v: number) => formatRate(v * 1000),
    },
    {
      key: 'onlineSeconds',
      dataIndex: 'onlineSeconds',
      title: t('clients.col.online'),
      sorter: true,
      sortOrder: sortOrder('onlineSeconds'),
      render: (v: number) => formatDuration(v),
    },
    {
      key: 'offlineSeconds',
      dataIndex: 'offlineSeconds',
      title: t('clients.col.offline'),
      sorter: offline,
      sortOrder: offline ? sortOrder('offlineSeconds') : null,
      render: (v: number | null) => (v === null ? t('common.none') : formatDuration(v)),
    },
    {
      key: 'device',
      title: t('clients.col.device'),
      sorter: true,
      sortOrder: sortOrder('device'),
      render: (_, c) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {c.deviceName || c.sn}
          {c.deviceModel ? ` (${c.deviceModel})` : ''}
        </span>
      ),
    },
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('clients.col.kind'),
      sorter: true,
      sortOrder: sortOrder('kind'),
      render: (v: string) => t(`clients.kind.${v}`, { defaultValue: v }),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: phone ? undefined : 'right',
      width: 130,
      render: (_, c) =>
        offline ? (
          t('common.none')
        ) : (
          <Tooltip title={blockedTip}>
            <Button
              type="link"
              size="small"
              danger
              style={{ padding: 0 }}
              disabled={!writable}
              onClick={() => forceOffline([c])}
              data-testid={`force-offline-${c.mac}`}
            >
              {t('clients.forceOffline')}
            </Button>
          </Tooltip>
        ),
    },
  ];

  // "All bands", "All SSIDs", "All client types": three selects side by side say which is which.
  const options = <T extends string>(all: string, values: readonly T[], label: (v: T) => string) => [
    { value: '', label: all },
    ...values.map((v) => ({ value: v, label: label(v) })),
  ];

  return (
    <>
      <PageTitle
        title={t('route.clientList')}
        extra={
          <Space wrap>
            <Tooltip title={live ? t('clients.live') : t('clients.notLive')}>
              <Badge status={live ? 'success' : 'default'} data-testid="live-indicator" />
            </Tooltip>
            <Button
              icon={<StopOutlined />}
              onClick={() => setBlacklistOpen(true)}
              data-testid="open-blacklist"
            >
              {t('clients.blacklist')}
            </Button>
            <Tooltip title={blockedTip}>
              <Button
                danger
                icon={<DisconnectOutlined />}
                disabled={!writable || selected.length === 0}
                onClick={() => forceOffline(selected)}
                data-testid="force-offline-selected"
              >
                {t('clients.forceOfflineSelected', { count: selected.length })}
              </Button>
            </Tooltip>
          </Space>
        }
      />
      {!writable ? <Alert type="info" showIcon message={blockedTip} style={{ marginBottom: 12 }} /> : null}
      <Card ref={tableBox}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Segmented
            aria-label={t('clients.status.label')}
            value={offline ? 'offline' : 'online'}
            onChange={(v) => {
              setSelected([]);
              setParams((p) => ({
                ...p,
                page: 1,
                status: v as 'online' | 'offline',
                sort: v === 'offline' ? 'offlineSeconds' : 'onlineSeconds',
                order: v === 'offline' ? 'asc' : 'desc',
              }));
            }}
            options={[
              { value: 'online', label: t('clients.status.online') },
              { value: 'offline', label: t('clients.status.offline', { hours: CLIENT_OFFLINE_HOURS }) },
            ]}
            data-testid="client-status"
          />
          <Select
            aria-label={t('clients.searchField')}
            value={field}
            onChange={setField}
            style={{ width: 170 }}
            options={SEARCH_FIELDS.map((f) => ({ value: f, label: t(`clients.field.${f}`) }))}
          />
          <Input.Search
            aria-label={t('clients.searchPlaceholder')}
            placeholder={t('clients.searchPlaceholder')}
            allowClear
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            onSearch={search}
            style={{ width: phone ? 200 : 260 }}
            data-testid="client-search"
          />
          <Select
            aria-label={t('clients.filter.band')}
            value={params.band ?? ''}
            style={{ width: 130 }}
            onChange={(v: string) =>
              setParams((p) => ({ ...p, page: 1, band: (v || undefined) as ClientListParams['band'] }))
            }
            options={options(t('clients.filter.allBands'), Object.values(FrequencyBand), (v) => v)}
            data-testid="filter-band"
          />
          <Select
            aria-label={t('clients.filter.ssid')}
            value={params.ssid ?? ''}
            style={{ width: 150 }}
            onChange={(v: string) => setParams((p) => ({ ...p, page: 1, ssid: v || undefined }))}
            options={options(t('clients.filter.allSsids'), ssids.data ?? [], (v) => v)}
            data-testid="filter-ssid"
          />
          <Select
            aria-label={t('clients.filter.kind')}
            value={params.kind ?? ''}
            style={{ width: 170 }}
            onChange={(v: string) =>
              setParams((p) => ({ ...p, page: 1, kind: (v || undefined) as ClientListParams['kind'] }))
            }
            options={options(t('clients.filter.allKinds'), Object.values(ClientKind), (v) =>
              t(`clients.kind.${v}`),
            )}
            data-testid="filter-kind"
          />
        </Space>
        <Table<ClientView>
          rowKey={rowKey}
          size="middle"
          columns={columns}
          dataSource={list.data?.items ?? []}
          loading={list.isLoading}
          onChange={onTableChange}
          scroll={{ x: 'max-content' }}
          rowSelection={
            offline
              ? undefined
              : {
                  selectedRowKeys: selected.map(rowKey),
                  onChange: (_keys, rows) => setSelected(rows),
                  getCheckboxProps: (c) => ({ disabled: !writable, 'aria-label': c.name || c.mac }) as never,
                }
          }
          locale={{
            emptyText: list.isError ? (
              <Empty description={errorText(list.error)} />
            ) : (
              <Empty
                description={t(offline ? 'clients.emptyOffline' : 'clients.empty')}
                data-testid="clients-empty"
              />
            ),
          }}
          pagination={{
            current: params.page,
            pageSize: params.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => (
              <span data-testid="clients-total">{t('clients.total', { count: total })}</span>
            ),
            size: phone ? 'small' : undefined,
          }}
          data-testid="clients-table"
        />
      </Card>
      <BlacklistModal
        open={blacklistOpen}
        projectId={projectId}
        writable={writable}
        onClose={() => setBlacklistOpen(false)}
      />
    </>
  );
}
