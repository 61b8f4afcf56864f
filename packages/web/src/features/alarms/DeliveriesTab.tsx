import type { AlarmDeliveryView } from '@beacon/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { formatDateTime } from '../../util/format.ts';
import { alarmsApi, alarmsKey } from './api.ts';

const STATE_COLOR = { pending: 'processing', delivered: 'success', failed: 'error' } as const;

/** Each delivery of an alarm (email, webhook) and its outcome. */
export function DeliveriesTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const list = useQuery({
    queryKey: [...alarmsKey(projectId), 'deliveries', page],
    queryFn: () => alarmsApi.deliveries(projectId, page.page, page.pageSize),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const columns: TableProps<AlarmDeliveryView>['columns'] = [
    { key: 'createdAt', dataIndex: 'createdAt', title: t('alarms.col.time'), render: formatDateTime },
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('alarms.col.event'),
      render: (k: string) => t(`alarms.kind.${k}`),
    },
    { key: 'sn', dataIndex: 'sn', title: t('alarms.col.sn') },
    {
      key: 'channel',
      dataIndex: 'channel',
      title: t('alarms.delivery.channel'),
      render: (c: string) => t(`alarms.delivery.${c}`),
    },
    { key: 'target', dataIndex: 'target', title: t('alarms.delivery.target') },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('alarms.delivery.state'),
      render: (s: AlarmDeliveryView['state']) => (
        <Tag color={STATE_COLOR[s]}>{t(`alarms.delivery.states.${s}`)}</Tag>
      ),
    },
    { key: 'attempts', dataIndex: 'attempts', title: t('alarms.delivery.attempts') },
    {
      key: 'lastError',
      title: t('alarms.delivery.outcome'),
      render: (_: unknown, d) =>
        d.lastError ??
        (d.responseStatus ? `HTTP ${d.responseStatus}` : d.deliveredAt ? formatDateTime(d.deliveredAt) : '-'),
    },
    {
      key: 'next',
      dataIndex: 'nextAttemptAt',
      title: t('alarms.delivery.next'),
      render: (v: string | null) => (v ? formatDateTime(v) : '-'),
    },
  ];
  return (
    <Table<AlarmDeliveryView>
      rowKey="id"
      size="middle"
      data-testid="alarm-deliveries"
      dataSource={list.data?.items ?? []}
      loading={list.isFetching && !list.data}
      columns={columns}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('alarms.delivery.empty') }}
      pagination={{
        current: page.page,
        pageSize: page.pageSize,
        total: list.data?.total ?? 0,
        simple: phone,
      }}
      onChange={(p) => setPage({ page: p.current ?? 1, pageSize: p.pageSize ?? 20 })}
    />
  );
}
