import type { NamedSeries, StatsPoint, StatsRange } from '@beacon/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Select, Space, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useCurrentProject } from '../../session/currentProject.ts';
import { errorText } from '../../state/feedback.ts';
import { devicesApi } from '../devices/api.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { statsApi, statsKey } from './api.ts';
import { type ChartSeries, TimeChart } from './Chart.tsx';
import { formatBps, formatCount, formatPercent, timeLabels } from './format.ts';
import { RangeSelect } from './RangeSelect.tsx';
import { TopTable } from './TopTable.tsx';

const ALL = '';

/**
 * /manage/devsrunstat (SPEC.md §2): CPU, memory, traffic and clients over 12 h … 30 d, for the
 * whole project (with top 10 lists and clients per band and SSID) or one device (with per-port,
 * per-radio and per-SSID series).
 */
export function DeviceDataPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  useLiveDeviceEvents(projectId);
  const { zone } = useProjectTime(projectId);
  const [range, setRange] = useState<StatsRange>('24h');
  const [sn, setSn] = useState<string>(ALL);
  const deviceList = useQuery({
    queryKey: ['devices', projectId, 'stats-picker'],
    queryFn: () => devicesApi.list(projectId!, { page: 1, pageSize: 200, sort: 'name', order: 'asc' }),
    enabled: projectId !== undefined,
  });
  const project = useQuery({
    queryKey: statsKey(projectId, 'devices', range),
    queryFn: () => statsApi.devices(projectId!, range),
    enabled: projectId !== undefined && sn === ALL,
    placeholderData: keepPreviousData,
  });
  const device = useQuery({
    queryKey: statsKey(projectId, 'device', sn, range),
    queryFn: () => statsApi.device(projectId!, sn, range),
    enabled: projectId !== undefined && sn !== ALL,
    placeholderData: keepPreviousData,
  });
  const view = sn === ALL ? project.data : device.data;
  const error = sn === ALL ? project.error : device.error;
  if (!current) return <NoProject title={t('route.deviceData')} />;

  return (
    <div data-testid="device-data-page">
      <PageTitle
        title={t('route.deviceData')}
        extra={
          <Space wrap>
            <Select
              aria-label={t('stats.device')}
              data-testid="stats-device"
              showSearch
              optionFilterProp="label"
              style={{ minWidth: 220 }}
              value={sn}
              onChange={setSn}
              options={[
                { value: ALL, label: t('stats.allDevices') },
                ...(deviceList.data?.items ?? []).map((d) => ({
                  value: d.sn,
                  label: d.name ? `${d.name} (${d.sn})` : d.sn,
                })),
              ]}
            />
            <RangeSelect value={range} onChange={setRange} />
          </Space>
        }
      />
      {error && <Alert type="error" showIcon message={errorText(error)} style={{ marginBottom: 16 }} />}
      {view && <Charts points={view.points} bucketSeconds={view.bucketSeconds} zone={zone} />}
      {sn === ALL && project.data && (
        <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
          <Col xs={24} lg={12}>
            <SeriesCard
              title={t('stats.clientsByBand')}
              series={project.data.bands}
              bucketSeconds={project.data.seriesBucketSeconds}
              zone={zone}
              metric="clients"
              testId="stats-bands"
            />
          </Col>
          <Col xs={24} lg={12}>
            <SeriesCard
              title={t('stats.clientsBySsid')}
              series={project.data.ssids}
              bucketSeconds={project.data.seriesBucketSeconds}
              zone={zone}
              metric="clients"
              testId="stats-ssids"
              note={
                project.data.ssidsOmitted > 0
                  ? t('stats.ssidsOmitted', {
                      count: project.data.ssidsOmitted,
                      shown: project.data.ssids.length,
                    })
                  : undefined
              }
            />
          </Col>
          <Col span={24}>
            <Card size="small" title={t('stats.top10')}>
              <Tabs
                items={[
                  {
                    key: 'traffic',
                    label: t('stats.traffic'),
                    children: <TopTable rows={project.data.top.traffic} value="bytes" testId="top-traffic" />,
                  },
                  {
                    key: 'clients',
                    label: t('stats.clients'),
                    children: <TopTable rows={project.data.top.clients} value="clients" />,
                  },
                  {
                    key: 'cpu',
                    label: t('stats.cpu'),
                    children: <TopTable rows={project.data.top.cpu} value="percent" />,
                  },
                  {
                    key: 'memory',
                    label: t('stats.memory'),
                    children: <TopTable rows={project.data.top.memory} value="percent" />,
                  },
                ]}
              />
            </Card>
          </Col>
        </Row>
      )}
      {sn !== ALL && device.data && (
        <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
          <Col xs={24} lg={12}>
            <SeriesCard
              title={t('stats.radioTraffic')}
              series={device.data.radios}
              bucketSeconds={device.data.bucketSeconds}
              zone={zone}
              metric="traffic"
              testId="stats-radios"
            />
          </Col>
          <Col xs={24} lg={12}>
            <SeriesCard
              title={t('stats.portTraffic')}
              series={device.data.ports}
              bucketSeconds={device.data.bucketSeconds}
              zone={zone}
              metric="traffic"
              testId="stats-ports"
            />
          </Col>
          <Col xs={24} lg={12}>
            <SeriesCard
              title={t('stats.clientsBySsid')}
              series={device.data.ssids}
              bucketSeconds={device.data.bucketSeconds}
              zone={zone}
              metric="clients"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}

function Charts({
  points,
  bucketSeconds,
  zone,
}: {
  points: StatsPoint[];
  bucketSeconds: number;
  zone?: string;
}) {
  const { t } = useTranslation();
  const labels = useMemo(() => timeLabels(points, bucketSeconds, zone), [points, bucketSeconds, zone]);
  const empty = points.every((p) => p.cpu === null);
  const cpuMemory = useMemo<ChartSeries[]>(
    () => [
      { name: t('stats.cpu'), data: points.map((p) => p.cpu) },
      { name: t('stats.memory'), data: points.map((p) => p.memory) },
    ],
    [points, t],
  );
  const traffic = useMemo<ChartSeries[]>(
    () => [
      { name: t('stats.rx'), data: points.map((p) => p.rxBps) },
      { name: t('stats.tx'), data: points.map((p) => p.txBps) },
    ],
    [points, t],
  );
  const clients = useMemo<ChartSeries[]>(
    () => [{ name: t('stats.clients'), data: points.map((p) => p.clients) }],
    [points, t],
  );
  if (empty)
    return (
      <Card size="small">
        <Empty description={t('stats.noData')} data-testid="stats-empty" />
      </Card>
    );
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.cpuMemory')}>
          <TimeChart
            labels={labels}
            series={cpuMemory}
            format={formatPercent}
            testId="chart-cpu"
            ariaLabel={t('stats.cpuMemory')}
          />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.traffic')}>
          <TimeChart
            labels={labels}
            series={traffic}
            format={formatBps}
            testId="chart-traffic"
            ariaLabel={t('stats.traffic')}
          />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.clients')}>
          <TimeChart
            labels={labels}
            series={clients}
            format={formatCount}
            testId="chart-clients"
            ariaLabel={t('stats.clients')}
          />
        </Card>
      </Col>
    </Row>
  );
}

/** One chart with a line per key (band, SSID, port, radio): clients, or traffic (received + sent). */
function SeriesCard({
  title,
  series,
  metric,
  testId,
  bucketSeconds,
  zone,
  note,
}: {
  title: string;
  series: NamedSeries[];
  metric: 'clients' | 'traffic';
  testId?: string;
  bucketSeconds: number;
  zone?: string;
  /** Shown under the chart (series left out). */
  note?: string;
}) {
  const { t } = useTranslation();
  const labels = useMemo(
    () => timeLabels(series[0]?.points ?? [], bucketSeconds, zone),
    [series, bucketSeconds, zone],
  );
  const lines = useMemo<ChartSeries[]>(
    () =>
      series.map((s) => ({
        name: metric === 'traffic' && /^\d+$/.test(s.key) ? t('stats.port', { id: s.key }) : s.key,
        data: s.points.map((p) =>
          metric === 'clients' ? p.clients : p.rxBps === null ? null : (p.rxBps ?? 0) + (p.txBps ?? 0),
        ),
      })),
    [series, metric, t],
  );
  return (
    <Card size="small" title={title}>
      {series.length ? (
        <TimeChart
          labels={labels}
          series={lines}
          format={metric === 'clients' ? formatCount : formatBps}
          height={220}
          testId={testId}
          ariaLabel={title}
        />
      ) : (
        <Empty description={t('stats.noData')} />
      )}
      {note ? <Typography.Text type="secondary">{note}</Typography.Text> : null}
    </Card>
  );
}
