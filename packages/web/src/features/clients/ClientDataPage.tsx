import { CLIENT_STAT_RANGES, type ClientStatRange, type ClientStatsView } from '@beacon/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Badge,
  Card,
  Col,
  Empty,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { useCurrentProject } from '../../session/currentProject.ts';
import { errorText } from '../../state/feedback.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { clientsApi, clientsKey } from './api.ts';
import { EChart, type EChartOption } from './EChart.tsx';

const DAY_CHOICES = [1, 3, 7, 14, 30] as const;

/** Times on the project's clock (useProjectTime): "YYYY-MM-DD HH:mm". */
type Format = (value: string) => string;

function lineOption(
  series: ClientStatsView['byBand'],
  range: ClientStatRange,
  phone: boolean,
  format: Format,
): EChartOption {
  const longRange = range === '7d' || range === '30d';
  const at = (v: number) => format(new Date(v).toISOString());
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { label: { formatter: (p: { value: number }) => at(p.value) } },
    },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 40, right: 16, top: 36, bottom: 28 },
    xAxis: {
      type: 'time',
      axisLabel: {
        hideOverlap: true,
        formatter: (v: number) => (longRange ? at(v).slice(5, 10) : at(v).slice(11, 16)),
        fontSize: phone ? 10 : 12,
      },
    },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => ({
      name: s.key,
      type: 'line',
      showSymbol: false,
      smooth: true,
      data: s.points,
    })),
  };
}

function pieOption(slices: { key: string; count: number }[], none: string): EChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { type: 'scroll', bottom: 0 },
    series: [
      {
        type: 'pie',
        radius: ['35%', '65%'],
        center: ['50%', '45%'],
        label: { formatter: '{b}: {c}' },
        data: slices.map((s) => ({ name: s.key || none, value: s.count })),
      },
    ],
  };
}

/** /manage/onlinestat: clients over time by band and SSID, and pies of the latest N days. */
export function ClientDataPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const live = useLiveDeviceEvents(projectId);
  const { format } = useProjectTime(projectId);
  const phone = useIsPhone();
  const [range, setRange] = useState<ClientStatRange>('24h');
  const [days, setDays] = useState<number>(7);
  const stats = useQuery({
    queryKey: [...clientsKey(projectId), 'stats', range, days],
    queryFn: () => clientsApi.stats(projectId!, { range, days }),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
    // Samples are taken every 5 minutes; the live event refreshes the count now.
    refetchInterval: 60_000,
  });
  const data = stats.data;
  const none = t('clients.stats.noSsid');
  const options = useMemo(() => {
    if (!data) return null;
    return {
      total: lineOption([{ key: t('clients.stats.clients'), points: data.total }], range, phone, format),
      band: lineOption(data.byBand, range, phone, format),
      ssid: lineOption(
        data.bySsid.map((s) => ({ ...s, key: s.key || none })),
        range,
        phone,
        format,
      ),
      pieBand: pieOption(data.pies.band, none),
      pieSsid: pieOption(data.pies.ssid, none),
      pieKind: pieOption(
        data.pies.kind.map((s) => ({ ...s, key: t(`clients.kind.${s.key}`, { defaultValue: s.key }) })),
        none,
      ),
    };
  }, [data, range, phone, none, t, format]);

  if (!current) return <NoProject title={t('route.clientData')} />;
  const hasSeries = Boolean(data?.byBand.length);
  const hasPies = Boolean(data?.pies.kind.length);

  const chartCard = (
    title: string,
    option: EChartOption | undefined,
    testId: string,
    show: boolean,
    note?: string,
  ) => (
    <Card title={title} size="small">
      {!data ? (
        <Skeleton active />
      ) : show && option ? (
        <EChart option={option} label={title} testId={testId} height={phone ? 220 : 280} />
      ) : (
        <Empty description={t('clients.stats.noData')} data-testid={`${testId}-empty`} />
      )}
      {note ? <Typography.Text type="secondary">{note}</Typography.Text> : null}
    </Card>
  );

  return (
    <>
      <PageTitle
        title={t('route.clientData')}
        extra={
          <Tooltip title={live ? t('clients.live') : t('clients.notLive')}>
            <Badge status={live ? 'success' : 'default'} data-testid="live-indicator" />
          </Tooltip>
        }
      />
      <Space wrap style={{ marginBottom: 16 }} align="center">
        <Radio.Group
          aria-label={t('clients.stats.range')}
          value={range}
          onChange={(e) => setRange(e.target.value)}
          optionType="button"
          size={phone ? 'small' : 'middle'}
          options={CLIENT_STAT_RANGES.map((r) => ({ value: r, label: t(`clients.range.${r}`) }))}
          data-testid="stats-range"
        />
        <Select
          aria-label={t('clients.stats.days')}
          value={days}
          onChange={setDays}
          style={{ width: 170 }}
          options={DAY_CHOICES.map((d) => ({
            value: d,
            label: `${t('clients.stats.days')} ${t('clients.stats.daysValue', { count: d })}`,
          }))}
          data-testid="stats-days"
        />
      </Space>
      {stats.isError ? <Empty description={errorText(stats.error)} /> : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic
              title={t('clients.stats.onlineNow')}
              value={data?.online ?? 0}
              loading={!data}
              valueRender={(node) => <span data-testid="clients-online-now">{node}</span>}
            />
          </Card>
        </Col>
        <Col xs={24} md={16}>
          {chartCard(t('clients.stats.total'), options?.total, 'chart-total', hasSeries)}
        </Col>
        <Col xs={24} lg={12}>
          {chartCard(t('clients.stats.byBand'), options?.band, 'chart-band', hasSeries)}
        </Col>
        <Col xs={24} lg={12}>
          {chartCard(
            t('clients.stats.bySsid'),
            options?.ssid,
            'chart-ssid',
            hasSeries,
            data && data.bySsidOmitted > 0
              ? t('stats.ssidsOmitted', { count: data.bySsidOmitted, shown: data.bySsid.length })
              : undefined,
          )}
        </Col>
        <Col xs={24} md={8}>
          {chartCard(t('clients.stats.pieBand'), options?.pieBand, 'pie-band', hasPies)}
        </Col>
        <Col xs={24} md={8}>
          {chartCard(t('clients.stats.pieSsid'), options?.pieSsid, 'pie-ssid', hasPies)}
        </Col>
        <Col xs={24} md={8}>
          {chartCard(t('clients.stats.pieKind'), options?.pieKind, 'pie-kind', hasPies)}
        </Col>
      </Row>
    </>
  );
}
