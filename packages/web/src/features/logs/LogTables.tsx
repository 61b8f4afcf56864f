import type { AuditView, DeviceLogView } from '@beacon/protocol';
import { Empty, Table, Tag, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { auditActionKey, auditEntityKey } from '../projects/auditText.ts';

const LEVEL_COLOURS: Record<string, string> = { info: 'blue', warning: 'orange', critical: 'red' };

export interface TablePage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

interface Props<T> {
  data: TablePage<T> | undefined;
  loading: boolean;
  /** Times on the project's clock (useProjectTime). */
  formatTime(iso: string): string;
  phone: boolean;
  onPage(page: number, pageSize: number): void;
  /** Time order (the server sorts; newest first by default). */
  order: 'asc' | 'desc';
  onOrder(order: 'asc' | 'desc'): void;
}

/** The Table's onChange: only a sort is handled here (paging goes through `pagination`). */
const sortHandler =
  (onOrder: (order: 'asc' | 'desc') => void) =>
  (_p: unknown, _f: unknown, sorter: unknown, extra: { action: string }) => {
    if (extra.action !== 'sort') return;
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as { order?: 'ascend' | 'descend' | null };
    onOrder(s?.order === 'ascend' ? 'asc' : 'desc');
  };

const pagination = <T,>(data: TablePage<T> | undefined, onPage: Props<T>['onPage']) => ({
  current: data?.page ?? 1,
  pageSize: data?.pageSize ?? 20,
  total: data?.total ?? 0,
  showSizeChanger: true,
  pageSizeOptions: [20, 50, 100, 200],
  onChange: onPage,
});

/** What a device did: newest first, on the project's clock. */
export function DeviceLogTable({
  data,
  loading,
  formatTime,
  phone,
  onPage,
  order,
  onOrder,
}: Props<DeviceLogView>) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  // A phone scrolls the table sideways: its scrolling box is reachable by keyboard (axe).
  useKeyboardScroll(box, t('logs.tab.device'));
  return (
    <div ref={box}>
      <Table<DeviceLogView>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={pagination(data, onPage)}
        onChange={sortHandler(onOrder)}
        scroll={{ x: phone ? 720 : undefined }}
        data-testid="device-log-table"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('logs.emptyDevice')} />,
        }}
        columns={[
          {
            key: 'at',
            title: t('logs.col.time'),
            width: 170,
            sorter: true,
            sortDirections: ['descend', 'ascend', 'descend'],
            sortOrder: order === 'asc' ? 'ascend' : 'descend',
            render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(r.at)}</span>,
          },
          {
            key: 'device',
            title: t('logs.col.device'),
            width: 200,
            render: (_, r) => (
              <span>
                {r.deviceName || r.sn}
                {r.deviceName ? (
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                    {r.sn}
                  </Typography.Text>
                ) : null}
              </span>
            ),
          },
          {
            key: 'event',
            title: t('logs.col.type'),
            width: 160,
            render: (_, r) => t(`logs.event.${r.event}`, { defaultValue: r.event }),
          },
          {
            key: 'level',
            title: t('logs.col.level'),
            width: 100,
            render: (_, r) => (
              <Tag color={LEVEL_COLOURS[r.level]} variant="outlined">
                {t(`logs.level.${r.level}`, { defaultValue: r.level })}
              </Tag>
            ),
          },
          { key: 'message', title: t('logs.col.message'), dataIndex: 'message', ellipsis: true },
        ]}
      />
    </div>
  );
}

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** Who did what, when, with what was before and after. */
export function AuditLogTable({
  data,
  loading,
  formatTime,
  phone,
  onPage,
  order,
  onOrder,
}: Props<AuditView>) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  // A phone scrolls the table sideways: its scrolling box is reachable by keyboard (axe).
  useKeyboardScroll(box, t('logs.tab.audit'));
  return (
    <div ref={box}>
      <Table<AuditView>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={pagination(data, onPage)}
        onChange={sortHandler(onOrder)}
        scroll={{ x: phone ? 820 : undefined }}
        data-testid="audit-log-table"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('logs.emptyAudit')} />,
        }}
        columns={[
          {
            key: 'at',
            title: t('logs.col.time'),
            width: 170,
            sorter: true,
            sortDirections: ['descend', 'ascend', 'descend'],
            sortOrder: order === 'asc' ? 'ascend' : 'descend',
            render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(r.at)}</span>,
          },
          { key: 'account', title: t('logs.col.account'), dataIndex: 'account', width: 180, ellipsis: true },
          {
            key: 'action',
            title: t('logs.col.action'),
            width: 160,
            render: (_, r) => t(auditActionKey(r), { defaultValue: r.action }),
          },
          {
            key: 'entity',
            title: t('logs.col.entity'),
            width: 180,
            render: (_, r) =>
              `${t(auditEntityKey(r), { defaultValue: r.entity })} ${r.entityId ?? ''}`.trim(),
          },
          {
            key: 'before',
            title: t('logs.col.before'),
            ellipsis: true,
            render: (_, r) => <code style={{ fontSize: 12 }}>{json(r.before)}</code>,
          },
          {
            key: 'after',
            title: t('logs.col.after'),
            ellipsis: true,
            render: (_, r) => <code style={{ fontSize: 12 }}>{json(r.after)}</code>,
          },
        ]}
      />
    </div>
  );
}
