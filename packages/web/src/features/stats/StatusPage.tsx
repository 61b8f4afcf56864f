import type { StatsRange } from '@beacon/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Statistic, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useCurrentProject } from '../../session/currentProject.ts';
import { errorText } from '../../state/feedback.ts';
import { useAlarmUnreadCount } from '../alarms/useAlarmUnreadCount.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { statsApi, statsKey } from './api.ts';
import { TimeChart } from './Chart.tsx';
import { formatBps, timeLabels } from './format.ts';
import { RangeSelect } from './RangeSelect.tsx';
import { TopTable } from './TopTable.tsx';

/**
 * /manage/status (SPEC.md §2): devices online and offline by type, clients now, WAN throughput,
 * unread alarms, top 5 APs by users and by throughput, over 12 h … 30 d. Refreshes on the
 * project's live `stats.updated` and device status events.
 */
export function StatusPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  useLiveDeviceEvents(projectId);
  const { zone } = useProjectTime(projectId);
  const [range, setRange] = useState<StatsRange>('24h');
  const status = useQuery({
    queryKey: statsKey(projectId, 'status', range),
    queryFn: () => statsApi.status(projectId!, range),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
  });
  const data = status.data;
  const labels = useMemo(() => (data ? timeLabels(data.wan, data.bucketSeconds, zone) : []), [data, zone]);
  const wanSeries = useMemo(
    () =>
      data
        ? [
            { name: t('stats.down'), data: data.wan.map((p) => p.rxBps) },
            { name: t('stats.up'), data: data.wan.map((p) => p.txBps) },
          ]
        : [],
    [data, t],
  );
  if (!current) return <NoProject title={t('route.status')} />;
  const hasWan = !!data?.wan.some((p) => p.rxBps > 0 || p.txBps > 0);

  return (
    <div data-testid="status-page">
      <PageTitle title={t('route.status')} extra={<RangeSelect value={range} onChange={setRange} />} />
      {status.error && (
        <Alert type="error" showIcon message={errorText(status.error)} style={{ marginBottom: 16 }} />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('stats.online')}
              value={data?.devices.online ?? '–'}
              data-testid="status-online"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('stats.offline')}
              value={data?.devices.offline ?? '–'}
              data-testid="status-offline"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('stats.clientsNow')}
              value={data?.clientsNow ?? '–'}
              data-testid="status-clients"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <UnreadAlarmsCard projectId={projectId} />
        </Col>
        <Col xs={24} lg={16}>
          <Card size="small" title={t('stats.wan')}>
            {data && hasWan ? (
              <TimeChart
                labels={labels}
                series={wanSeries}
                format={formatBps}
                testId="status-wan-chart"
                ariaLabel={t('stats.wan')}
              />
            ) : (
              <Empty description={t('stats.noWan')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t('stats.byType')}>
            <Table
              size="small"
              rowKey="type"
              pagination={false}
              data-testid="status-by-type"
              dataSource={data?.devices.byType ?? []}
              locale={{ emptyText: t('stats.noDevices') }}
              columns={[
                {
                  title: t('stats.type'),
                  dataIndex: 'type',
                  key: 'type',
                  render: (v: string) => t(`stats.types.${v}`, { defaultValue: v }),
                },
                {
                  title: t('stats.online'),
                  dataIndex: 'online',
                  key: 'online',
                  align: 'right',
                  sorter: (a, b) => a.online - b.online,
                },
                {
                  title: t('stats.offline'),
                  dataIndex: 'offline',
                  key: 'offline',
                  align: 'right',
                  sorter: (a, b) => a.offline - b.offline,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('stats.topUsers')}>
            <TopTable rows={data?.topByClients ?? []} value="clients" testId="status-top-users" />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('stats.topThroughput')}>
            <TopTable rows={data?.topByThroughput ?? []} value="bytes" testId="status-top-throughput" />
          </Card>
        </Col>
      </Row>
    </div>
  );
}

/** Unread alarms of the project (features/alarms), live with the layout's badge. */
function UnreadAlarmsCard({ projectId }: { projectId: number | undefined }) {
  const { t } = useTranslation();
  const unread = useAlarmUnreadCount(projectId);
  return (
    <Card size="small">
      <Statistic title={t('stats.unreadAlarms')} value={unread ?? '–'} data-testid="status-alarms" />
    </Card>
  );
}
