import {
  ArrowLeftOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  ConfigProvider,
  Row,
  Skeleton,
  Space,
  Statistic,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NoProject } from '../../components/NoProject.tsx';
import { useDocumentTitle } from '../../layout/PageTitle.tsx';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { formatDateTime } from '../../util/format.ts';
import { useAlarmUnreadCount } from '../alarms/useAlarmUnreadCount.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import {
  dataScreenKey,
  dataScreenMapKey,
  onlineSeriesKey,
  overviewApi,
  overviewKey,
  REFRESH_MS,
} from './api.ts';
import { DataScreenSettings } from './DataScreenSettings.tsx';
import { HealthTag } from './HealthTag.tsx';
import { OnlineChart } from './OnlineChart.tsx';
import { TypeChart } from './TypeChart.tsx';
import { WorldMap } from './WorldMap.tsx';

const SCREEN_BG = '#061428';
const TEXT = '#e6f4ff';

/**
 * The data screen (SPEC.md §2 /overview/preview/datascreen; docs/decisions/0041): a dashboard for a
 * wall display with the project's title and subtitle, its counters, devices online over 24 hours
 * (stored statistics), a chart by device type and a world map with the chosen countries' device
 * counts (docs/decisions/0045). Refreshes by itself every 30 s and on the project's live events.
 */
export function DataScreenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const project = useCurrentProject();
  const projectId = project?.id;
  const screen = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [editing, setEditing] = useState(false);
  useDocumentTitle(t('dataScreen.title'));
  useLiveDeviceEvents(projectId);
  const unreadAlarms = useAlarmUnreadCount(projectId);

  const overview = useQuery({
    queryKey: overviewKey(projectId),
    queryFn: () => overviewApi.overview(projectId!),
    enabled: projectId !== undefined,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
  });
  const settings = useQuery({
    queryKey: dataScreenKey(projectId),
    queryFn: () => overviewApi.dataScreen(projectId!),
    enabled: projectId !== undefined,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
  });

  const online = useQuery({
    queryKey: onlineSeriesKey(projectId),
    queryFn: () => overviewApi.online(projectId!),
    enabled: projectId !== undefined,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
  });
  const map = useQuery({
    // The countries come from the settings: a save refetches the counts.
    queryKey: [...dataScreenMapKey(projectId), settings.data?.countries.join(',') ?? ''],
    queryFn: () => overviewApi.map(projectId!),
    enabled: projectId !== undefined && settings.data !== undefined,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
  });

  useEffect(() => {
    const sync = () => setFullscreen(document.fullscreenElement === screen.current && !!screen.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  if (!project || projectId === undefined) return <NoProject title={t('dataScreen.title')} />;

  const writable = canWrite(project);
  const blocked = project.isDemo ? t('dataScreen.demo') : writable ? undefined : t('dataScreen.readOnly');
  const stats = overview.data?.stats;
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void screen.current?.requestFullscreen?.();
  };

  const counters = [
    { key: 'online', label: t('overview.online'), value: stats?.online, colour: '#95de64' },
    { key: 'offline', label: t('overview.offline'), value: stats?.offline, colour: '#ffa39e' },
    { key: 'clients', label: t('overview.clients'), value: stats?.clients, colour: '#91caff' },
    { key: 'total', label: t('overview.total'), value: stats?.total, colour: TEXT },
    { key: 'alarms', label: t('stats.unreadAlarms'), value: unreadAlarms, colour: '#ffd591' },
  ];

  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <div
        ref={screen}
        data-testid="data-screen"
        style={{
          background: SCREEN_BG,
          color: TEXT,
          minHeight: fullscreen ? '100vh' : 'calc(100vh - 140px)',
          padding: 'clamp(12px, 2vw, 32px)',
          borderRadius: fullscreen ? 0 : 8,
          overflow: 'auto',
        }}
      >
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 12,
            alignItems: 'flex-start',
            justifyContent: 'space-between',
            marginBottom: 24,
          }}
        >
          <div style={{ minWidth: 0 }}>
            {settings.data ? (
              <>
                <Typography.Title
                  level={1}
                  style={{ margin: 0, color: TEXT, fontSize: 'clamp(24px, 4vw, 44px)' }}
                  data-testid="data-screen-title"
                >
                  {settings.data.title}
                </Typography.Title>
                {settings.data.subtitle ? (
                  <Typography.Paragraph
                    style={{ margin: 0, color: TEXT, opacity: 0.9, fontSize: 'clamp(14px, 1.6vw, 20px)' }}
                    data-testid="data-screen-subtitle"
                  >
                    {settings.data.subtitle}
                  </Typography.Paragraph>
                ) : null}
              </>
            ) : (
              <Skeleton.Input active />
            )}
          </div>
          <Space wrap>
            {fullscreen ? null : (
              <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/overview/preview')}>
                {t('dataScreen.back')}
              </Button>
            )}
            <Tooltip title={blocked}>
              <Button
                icon={<SettingOutlined />}
                disabled={!writable || !settings.data}
                onClick={() => setEditing(true)}
                data-testid="data-screen-settings"
              >
                {t('dataScreen.settings')}
              </Button>
            </Tooltip>
            <Button
              type="primary"
              icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggleFullscreen}
              data-testid="data-screen-fullscreen"
            >
              {fullscreen ? t('dataScreen.exitFullscreen') : t('dataScreen.fullscreen')}
            </Button>
          </Space>
        </div>

        <Row gutter={[16, 16]}>
          {counters.map((c) => (
            <Col key={c.key} flex="1 1 160px">
              <Card size="small" style={{ background: 'rgba(255,255,255,0.04)' }}>
                <Statistic
                  title={<span style={{ color: TEXT }}>{c.label}</span>}
                  value={c.value ?? 0}
                  loading={!stats}
                  styles={{ content: { color: c.colour, fontSize: 'clamp(24px, 3vw, 40px)' } }}
                  valueRender={(node) => <span data-testid={`data-screen-${c.key}`}>{node}</span>}
                />
              </Card>
            </Col>
          ))}
          <Col xs={24} lg={12}>
            <Card
              size="small"
              title={t('dataScreen.onlineChart')}
              style={{ background: 'rgba(255,255,255,0.04)', height: '100%' }}
            >
              <OnlineChart series={online.data} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card
              size="small"
              title={t('dataScreen.chart')}
              style={{ background: 'rgba(255,255,255,0.04)', height: '100%' }}
            >
              <TypeChart byType={overview.data?.byType ?? []} />
            </Card>
          </Col>
          <Col span={24}>
            <Card
              size="small"
              title={t('dataScreen.map')}
              extra={stats ? <HealthTag health={stats.health} testId="data-screen-health" dark /> : null}
              style={{ background: 'rgba(255,255,255,0.04)' }}
            >
              <WorldMap countries={map.data?.countries ?? []} loading={!map.data} />
            </Card>
          </Col>
        </Row>
        <Typography.Paragraph
          style={{ marginTop: 16, marginBottom: 0, color: TEXT, opacity: 0.85, fontSize: 12 }}
        >
          {t('dataScreen.refreshHint')}
          {overview.data ? ` · ${t('overview.updatedAt', { time: formatDateTime(overview.data.at) })}` : ''}
        </Typography.Paragraph>
      </div>
      <DataScreenSettings
        projectId={projectId}
        value={settings.data}
        open={editing}
        onClose={() => setEditing(false)}
      />
    </ConfigProvider>
  );
}
