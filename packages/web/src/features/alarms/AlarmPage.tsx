import { ALARM_KINDS, type AlarmKind, type AlarmView } from '@beacon/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  type ButtonProps,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableProps,
  Tabs,
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
import { formatDateTime } from '../../util/format.ts';
import { type AlarmListParams, alarmsApi, alarmsKey } from './api.ts';
import { DeliveriesTab } from './DeliveriesTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { useLiveAlarms } from './useAlarmUnreadCount.ts';
import { WindowsTab } from './WindowsTab.tsx';

/** A datetime-local value (browser time) as ISO, or undefined. */
const toIso = (local: string): string | undefined => {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

/** /manage/alarminfo: the project's alarms, their delivery and maintenance windows (docs/alarms.md). */
export function AlarmPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  useLiveAlarms(projectId);
  const [tab, setTab] = useState('alarms');
  const phone = useIsPhone();
  // Short names on a phone, so the four tabs fit without antd's overflow menu.
  const tabs = phone ? 'alarms.tabsShort' : 'alarms.tabs';
  if (!current || projectId === undefined) return <NoProject title={t('route.alarm')} />;
  const writable = canWrite(current);
  const blocked = writable
    ? undefined
    : t(current.isDemo ? 'project.demoNoWrite' : 'project.readOnlyNoWrite');
  return (
    <>
      <PageTitle title={t('route.alarm')} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        tabBarGutter={phone ? 16 : undefined}
        items={[
          {
            key: 'alarms',
            label: t(`${tabs}.alarms`),
            children: <AlarmTable projectId={projectId} blocked={blocked} />,
          },
          {
            key: 'settings',
            label: t(`${tabs}.settings`),
            children: <SettingsTab projectId={projectId} blocked={blocked} />,
          },
          {
            key: 'deliveries',
            label: t(`${tabs}.deliveries`),
            children: <DeliveriesTab projectId={projectId} />,
          },
          {
            key: 'windows',
            label: t(`${tabs}.windows`),
            children: <WindowsTab projectId={projectId} blocked={blocked} />,
          },
        ]}
      />
    </>
  );
}

function AlarmTable({ projectId, blocked }: { projectId: number; blocked: string | undefined }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const queryClient = useQueryClient();
  const [params, setParams] = useState<AlarmListParams>({ page: 1, pageSize: 20, order: 'desc' });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const tableBox = useRef<HTMLDivElement>(null);
  useInertMeasureRow(tableBox);
  const list = useQuery({
    queryKey: [...alarmsKey(projectId), 'list', params],
    queryFn: () => alarmsApi.list(projectId, params),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    void projectId;
    setSelected([]);
  }, [projectId]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: alarmsKey(projectId) });
  const markRead = async (ids: number[]) => {
    try {
      const res = await alarmsApi.markRead(projectId, ids);
      showSuccess(t('alarms.markedRead', { count: res.updated }));
      setSelected([]);
      await refresh();
    } catch (e) {
      showError(errorText(e));
    }
  };
  const markAll = async () => {
    try {
      const res = await alarmsApi.markAllRead(projectId);
      showSuccess(t('alarms.markedRead', { count: res.updated }));
      setSelected([]);
      await refresh();
    } catch (e) {
      showError(errorText(e));
    }
  };
  const filter = (patch: Partial<AlarmListParams>) => setParams((p) => ({ ...p, ...patch, page: 1 }));

  const columns: TableProps<AlarmView>['columns'] = [
    {
      key: 'at',
      dataIndex: 'at',
      title: t('alarms.col.time'),
      sorter: true,
      sortOrder: params.order === 'asc' ? 'ascend' : 'descend',
      render: (v: string) => formatDateTime(v),
      width: 150,
    },
    {
      key: 'event',
      dataIndex: 'event',
      title: t('alarms.col.event'),
      render: (v: string, a) => (
        <Space direction="vertical" size={0}>
          <Tag color={a.level === 'critical' ? 'error' : 'warning'}>{t(`alarms.kind.${a.kind}`)}</Tag>
          <span>{v}</span>
          {a.count > 1 ? <span>{t('alarms.repeated', { count: a.count })}</span> : null}
        </Space>
      ),
    },
    { key: 'mac', dataIndex: 'mac', title: t('alarms.col.mac'), render: (v: string | null) => v ?? '-' },
    { key: 'model', dataIndex: 'model', title: t('alarms.col.model') },
    { key: 'name', dataIndex: 'name', title: t('alarms.col.name'), render: (v: string, a) => v || a.sn },
    { key: 'project', dataIndex: 'project', title: t('alarms.col.project') },
    {
      key: 'read',
      dataIndex: 'read',
      title: t('alarms.col.read'),
      render: (v: number) =>
        v === 1 ? <Tag>{t('alarms.read.1')}</Tag> : <Tag color="blue">{t('alarms.read.0')}</Tag>,
    },
    {
      key: 'action',
      title: t('alarms.col.action'),
      render: (_: unknown, a) =>
        a.read === 0 ? (
          <Tooltip title={blocked}>
            <Button
              size="small"
              disabled={blocked !== undefined}
              onClick={() => markRead([a.id])}
              data-testid={`alarm-read-${a.id}`}
            >
              {t('alarms.markRead')}
            </Button>
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('alarms.filter.kind')}
          placeholder={t('alarms.filter.kind')}
          allowClear
          style={{ width: phone ? 160 : 200 }}
          value={params.kind}
          onChange={(kind?: AlarmKind) => filter({ kind })}
          options={ALARM_KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) }))}
          data-testid="alarm-filter-kind"
        />
        <Select
          aria-label={t('alarms.filter.read')}
          placeholder={t('alarms.filter.read')}
          allowClear
          style={{ width: 140 }}
          value={params.read as number | undefined}
          onChange={(read?: number) => filter({ read })}
          options={[
            { value: 0, label: t('alarms.read.0') },
            { value: 1, label: t('alarms.read.1') },
          ]}
          data-testid="alarm-filter-read"
        />
        <Input.Search
          aria-label={t('alarms.filter.sn')}
          placeholder={t('alarms.filter.sn')}
          allowClear
          style={{ width: 220 }}
          onSearch={(v) => filter({ sn: v.trim() || undefined })}
        />
        <Input
          type="datetime-local"
          aria-label={t('alarms.filter.from')}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            filter({ from: toIso(e.target.value) });
          }}
        />
        <Input
          type="datetime-local"
          aria-label={t('alarms.filter.to')}
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            filter({ to: toIso(e.target.value) });
          }}
        />
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        <Tooltip title={blocked}>
          <Button
            disabled={blocked !== undefined || selected.length === 0}
            onClick={() => markRead(selected)}
            data-testid="alarm-read-selected"
          >
            {t('alarms.markSelectedRead', { count: selected.length })}
          </Button>
        </Tooltip>
        <Popconfirm
          title={t('alarms.markAllConfirm')}
          okText={t('alarms.markAllRead')}
          cancelText={t('common.cancel')}
          disabled={blocked !== undefined}
          onConfirm={markAll}
          okButtonProps={{ 'data-testid': 'alarm-read-all-confirm' } as ButtonProps}
        >
          <Tooltip title={blocked}>
            <Button type="primary" disabled={blocked !== undefined} data-testid="alarm-read-all">
              {t('alarms.markAllRead')}
            </Button>
          </Tooltip>
        </Popconfirm>
      </Space>
      <div ref={tableBox}>
        <Table<AlarmView>
          rowKey="id"
          size="middle"
          data-testid="alarm-table"
          loading={list.isFetching && !list.data}
          dataSource={list.data?.items ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('alarms.empty') }}
          rowSelection={
            blocked === undefined
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys as number[]),
                  getCheckboxProps: (a) => ({
                    disabled: a.read === 1,
                    'aria-label': t('alarms.select', { sn: a.sn }),
                  }),
                }
              : undefined
          }
          pagination={{
            current: params.page,
            pageSize: params.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            simple: phone,
          }}
          onChange={(pagination, _filters, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            setParams((p) => ({
              ...p,
              page: pagination.current ?? 1,
              pageSize: pagination.pageSize ?? p.pageSize,
              order: s?.order === 'ascend' ? 'asc' : 'desc',
            }));
          }}
        />
      </div>
    </>
  );
}
