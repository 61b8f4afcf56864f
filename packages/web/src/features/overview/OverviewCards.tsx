import type { TypeStats } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Skeleton, Statistic, Table, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { formatDateTime } from '../../util/format.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { overviewApi, overviewKey, REFRESH_MS } from './api.ts';
import { HealthTag } from './HealthTag.tsx';

/**
 * The project overview's counts (docs/decisions/0041): devices in total, online, offline, clients
 * now, configuration failures and health, and the same by device type. Refreshed on the project's
 * live device events and every 30 s.
 */
export function OverviewCards({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  useLiveDeviceEvents(projectId);
  const box = useRef<HTMLDivElement>(null);
  useKeyboardScroll(box, t('overview.byType'));
  const overview = useQuery({
    queryKey: overviewKey(projectId),
    queryFn: () => overviewApi.overview(projectId),
    refetchInterval: REFRESH_MS,
  });
  const o = overview.data;
  const stats = o?.stats;

  const counters: { key: string; label: string; value: number | undefined; colour?: string }[] = [
    { key: 'total', label: t('overview.total'), value: stats?.total },
    { key: 'online', label: t('overview.online'), value: stats?.online, colour: '#237804' },
    { key: 'offline', label: t('overview.offline'), value: stats?.offline, colour: '#a8071a' },
    { key: 'clients', label: t('overview.clients'), value: stats?.clients },
    { key: 'configFailed', label: t('overview.configFailed'), value: stats?.configFailed },
  ];

  return (
    <Card
      title={t('overview.devicesTitle')}
      extra={
        o ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('overview.updatedAt', { time: formatDateTime(o.at) })}
          </Typography.Text>
        ) : null
      }
      data-testid="overview-counts"
      ref={box}
    >
      {overview.isLoading || !stats ? (
        <Skeleton active />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            {counters.map((c) => (
              <Col key={c.key} xs={12} sm={8} lg={4}>
                <Statistic
                  title={c.label}
                  value={c.value ?? 0}
                  styles={c.colour ? { content: { color: c.colour } } : undefined}
                  valueRender={(node) => <span data-testid={`overview-${c.key}`}>{node}</span>}
                />
              </Col>
            ))}
            <Col xs={12} sm={8} lg={4}>
              <Statistic
                title={t('overview.health')}
                value=" "
                valueRender={() => <HealthTag health={stats.health} testId="overview-health" />}
              />
            </Col>
          </Row>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('overview.byType')}
          </Typography.Title>
          <Table<TypeStats>
            rowKey="type"
            size="small"
            pagination={false}
            dataSource={o.byType}
            scroll={{ x: 480 }}
            data-testid="overview-by-type"
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.noDevices')} />,
            }}
            columns={[
              {
                title: t('overview.type'),
                dataIndex: 'type',
                key: 'type',
                render: (type: string) => t(`devices.type.${type}`, { defaultValue: type }),
              },
              { title: t('overview.total'), dataIndex: 'total', key: 'total', align: 'right' },
              { title: t('overview.online'), dataIndex: 'online', key: 'online', align: 'right' },
              { title: t('overview.offline'), dataIndex: 'offline', key: 'offline', align: 'right' },
              { title: t('overview.clients'), dataIndex: 'clients', key: 'clients', align: 'right' },
              {
                title: t('overview.health'),
                dataIndex: 'health',
                key: 'health',
                render: (h: number | null) => <HealthTag health={h} />,
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}
