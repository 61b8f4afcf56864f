import type { TopDevice } from '@beacon/protocol';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatCount } from './format.ts';

/** A top list (devices by clients, traffic, CPU or memory), sortable by its columns. */
export function TopTable({
  rows,
  value,
  testId,
}: {
  rows: (TopDevice & { value?: number })[];
  /** Which column to show: average clients, bytes moved, or a percent value. */
  value: 'clients' | 'bytes' | 'percent';
  testId?: string;
}) {
  const { t } = useTranslation();
  const number = (r: TopDevice & { value?: number }) =>
    value === 'clients' ? r.clients : value === 'bytes' ? r.bytes : (r.value ?? 0);
  return (
    <Table
      size="small"
      rowKey="sn"
      data-testid={testId}
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: t('stats.noData') }}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: '#', key: 'rank', width: 40, render: (_v, _r, i) => i + 1 },
        {
          title: t('stats.device'),
          key: 'name',
          sorter: (a, b) => (a.name || a.sn).localeCompare(b.name || b.sn),
          render: (_v, r) => r.name || r.sn,
        },
        { title: t('stats.model'), dataIndex: 'model', key: 'model' },
        {
          title: t(`stats.top.${value}`),
          key: 'value',
          align: 'right',
          defaultSortOrder: 'descend',
          sorter: (a, b) => number(a) - number(b),
          render: (_v, r) =>
            value === 'bytes'
              ? formatBytes(r.bytes)
              : value === 'clients'
                ? formatCount(r.clients)
                : `${number(r)}%`,
        },
      ]}
    />
  );
}
