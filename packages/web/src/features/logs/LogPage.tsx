import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Badge, Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { devicesApi } from '../devices/api.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { type LogKind, logsApi, logsKey } from './api.ts';
import { DownloadButton } from './DownloadButton.tsx';
import { type FilterState, filterOf, LogFilters } from './LogFilters.tsx';
import { AuditLogTable, DeviceLogTable } from './LogTables.tsx';
import { RetentionCard } from './RetentionCard.tsx';

/** /manage/runlog: the device log and the audit log, filters, server paging, downloads, retention. */
export function LogPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const phone = useIsPhone();
  const time = useProjectTime(projectId);
  // New device events refresh the device log (useLiveDeviceEvents invalidates ['logs', id, 'device']).
  const live = useLiveDeviceEvents(projectId);
  const [tab, setTab] = useState<LogKind>('device');
  const [filters, setFilters] = useState<Record<LogKind, FilterState>>({
    device: { range: '24h' },
    audit: { range: '30d' },
  });
  const [pages, setPages] = useState<
    Record<LogKind, { page: number; pageSize: number; order: 'asc' | 'desc' }>
  >({
    device: { page: 1, pageSize: 20, order: 'desc' },
    audit: { page: 1, pageSize: 20, order: 'desc' },
  });

  const devices = useQuery({
    queryKey: ['devices', projectId, 'log-filter'],
    queryFn: () => devicesApi.list(projectId!, { page: 1, pageSize: 200, sort: 'name', order: 'asc' }),
    enabled: projectId !== undefined,
    staleTime: 60_000,
  });
  const deviceFilter = filterOf(filters.device, 'device');
  const auditFilter = filterOf(filters.audit, 'audit');
  const deviceLog = useQuery({
    queryKey: [...logsKey(projectId, 'device'), filters.device, pages.device],
    queryFn: () => logsApi.device(projectId!, { ...deviceFilter, ...pages.device }),
    enabled: projectId !== undefined && tab === 'device',
    placeholderData: keepPreviousData,
  });
  const auditLog = useQuery({
    queryKey: [...logsKey(projectId, 'audit'), filters.audit, pages.audit],
    queryFn: () => logsApi.audit(projectId!, { ...auditFilter, ...pages.audit }),
    enabled: projectId !== undefined && tab === 'audit',
    placeholderData: keepPreviousData,
  });

  if (!current || projectId === undefined) return <NoProject title={t('route.log')} />;
  const deviceOptions = (devices.data?.items ?? []).map((d) => ({ sn: d.sn, name: d.name }));
  const setFilter = (kind: LogKind) => (next: FilterState) => {
    setFilters((f) => ({ ...f, [kind]: next }));
    setPages((p) => ({ ...p, [kind]: { ...p[kind], page: 1 } }));
  };
  const onPage = (kind: LogKind) => (page: number, pageSize: number) =>
    setPages((p) => ({ ...p, [kind]: { ...p[kind], page, pageSize } }));
  const onOrder = (kind: LogKind) => (order: 'asc' | 'desc') =>
    setPages((p) => ({ ...p, [kind]: { ...p[kind], page: 1, order } }));

  return (
    <div data-testid="log-page">
      <PageTitle
        title={t('route.log')}
        extra={
          <>
            <Badge
              status={live ? 'success' : 'default'}
              text={live ? t('logs.live') : t('logs.notLive')}
              data-testid="log-live"
            />
            <DownloadButton
              projectId={projectId}
              kind={tab}
              filter={tab === 'device' ? deviceFilter : auditFilter}
            />
          </>
        }
      />
      <RetentionCard projectId={projectId} writable={canWrite(current)} />
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as LogKind)}
          items={[
            {
              key: 'device',
              label: t('logs.tab.device'),
              children: (
                <>
                  <LogFilters
                    kind="device"
                    value={filters.device}
                    onChange={setFilter('device')}
                    devices={deviceOptions}
                  />
                  <DeviceLogTable
                    data={deviceLog.data}
                    loading={deviceLog.isLoading}
                    formatTime={time.format}
                    phone={phone}
                    onPage={onPage('device')}
                    order={pages.device.order}
                    onOrder={onOrder('device')}
                  />
                </>
              ),
            },
            {
              key: 'audit',
              label: t('logs.tab.audit'),
              children: (
                <>
                  <LogFilters
                    kind="audit"
                    value={filters.audit}
                    onChange={setFilter('audit')}
                    devices={deviceOptions}
                  />
                  <AuditLogTable
                    data={auditLog.data}
                    loading={auditLog.isLoading}
                    formatTime={time.format}
                    phone={phone}
                    onPage={onPage('audit')}
                    order={pages.audit.order}
                    onOrder={onOrder('audit')}
                  />
                </>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
