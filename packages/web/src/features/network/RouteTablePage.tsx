import { ReloadOutlined } from '@ant-design/icons';
import type { RouteTableEntry } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Table, type TableProps, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useCurrentProject } from '../../session/currentProject.ts';
import { networkApi, routeTableKey } from './api.ts';

/**
 * /manage/networkconf/router: the routes the gateway runs, read from the device on demand
 * (the route-table command), not from Beacon's database.
 */
export function RouteTablePage() {
  const { t } = useTranslation();
  const project = useCurrentProject();
  const projectId = project?.id;
  const query = useQuery({
    queryKey: routeTableKey(projectId),
    queryFn: () => networkApi.routeTable(projectId!),
    enabled: projectId !== undefined,
    staleTime: 0,
  });
  const title = t('route.routeTable');
  if (!project) return <NoProject title={title} />;
  const data = query.data;
  const columns: TableProps<RouteTableEntry>['columns'] = [
    {
      title: t('network.routeTable.destination'),
      dataIndex: 'destination',
      sorter: (a, b) => a.destination.localeCompare(b.destination),
    },
    { title: t('network.mask'), dataIndex: 'mask' },
    { title: t('network.gateway'), dataIndex: 'gateway' },
    { title: t('network.routeTable.interface'), dataIndex: 'interface' },
    { title: t('network.routeTable.metric'), dataIndex: 'metric', sorter: (a, b) => a.metric - b.metric },
    {
      title: t('network.routeTable.source'),
      dataIndex: 'source',
      filters: ['connected', 'static', 'default'].map((s) => ({
        text: t(`network.routeTable.sources.${s}`),
        value: s,
      })),
      onFilter: (v, r) => r.source === v,
      render: (_, r) => <Tag>{t(`network.routeTable.sources.${r.source}`)}</Tag>,
    },
  ];
  return (
    <div data-testid="network-router-page">
      <PageTitle
        title={title}
        extra={
          <Button
            icon={<ReloadOutlined />}
            onClick={() => query.refetch()}
            loading={query.isFetching}
            data-testid="route-table-refresh"
          >
            {t('network.routeTable.read')}
          </Button>
        }
      />
      {data && data.code !== 0 && (
        <Alert
          type="warning"
          showIcon
          message={`${data.message ?? ''} (${data.code})`}
          style={{ marginBottom: 16 }}
          data-testid="route-table-unavailable"
        />
      )}
      <Card
        size="small"
        title={data?.sn ? t('network.routeTable.from', { sn: data.sn, revision: data.revision }) : undefined}
      >
        <Table
          size="small"
          rowKey={(r) => `${r.source}-${r.destination}-${r.mask}-${r.gateway}`}
          columns={columns}
          dataSource={data?.routes ?? []}
          loading={query.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('network.routeTable.empty') }}
          data-testid="route-table"
        />
      </Card>
    </div>
  );
}
