import { EditOutlined, FundProjectionScreenOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { type AuditView, formatDateTimeInZone } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Skeleton, Table, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { NoProject } from '../../components/NoProject.tsx';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { ProjectTags, SWITCHER_QUERY } from '../../layout/ProjectSwitcher.tsx';
import { selectProject, useCurrentProject } from '../../session/currentProject.ts';
import { formatDateTime, formatTimeZone } from '../../util/format.ts';
import { devicesApi } from '../devices/api.ts';
import { OverviewCards } from '../overview/OverviewCards.tsx';
import { PendingOffers } from '../sharing/PendingOffers.tsx';
import { auditActionKey, auditEntityKey, auditSubject } from './auditText.ts';
import { propertyKey, rightKey } from './labels.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { writeBlockReason } from './ProjectListPage.tsx';
import { useScenarioLabel } from './ScenarioSelect.tsx';

export function ProjectPreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useCurrentProject();
  const scenarioLabel = useScenarioLabel();
  const [editOpen, setEditOpen] = useState(false);

  // No project selected: pick the first from the list.
  const list = useQuery({
    queryKey: ['projects', 'switcher'],
    queryFn: () => api.projects(SWITCHER_QUERY),
    enabled: !current,
  });
  useEffect(() => {
    if (!current && list.data?.items[0]) selectProject(list.data.items[0]);
  }, [current, list.data]);

  const project = useQuery({
    queryKey: ['project', current?.id],
    queryFn: () => api.project(current!.id),
    enabled: !!current,
  });
  const logs = useQuery({
    queryKey: ['project', current?.id, 'logs'],
    queryFn: () => api.projectLogs(current!.id, { page: 1, pageSize: 10 }),
    enabled: !!current,
  });
  useEffect(() => {
    if (project.data) selectProject(project.data);
  }, [project.data]);
  // Device actions record the SN only: the names come from the project's device list.
  const needsDeviceNames = logs.data?.items.some((a) => a.entity === 'device') ?? false;
  const deviceNames = useQuery({
    queryKey: ['devices', current?.id, 'names'],
    queryFn: () => devicesApi.list(current!.id, { page: 1, pageSize: 200, sort: 'name', order: 'asc' }),
    enabled: !!current && needsDeviceNames,
    select: (page) => new Map(page.items.map((d) => [d.sn, d.name])),
    meta: { silent: true },
  });

  const logsBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(logsBox, t('project.recentLogs'));

  const p = project.data;
  const blocked = p ? writeBlockReason(p) : null;

  if (!current) return <NoProject title={t('route.overviewPreview')} loading={list.isLoading} />;

  return (
    <>
      <PageTitle
        title={t('route.overviewPreview')}
        extra={
          <>
            <Button icon={<UnorderedListOutlined />} onClick={() => navigate('/overview/list')}>
              {t('project.openList')}
            </Button>
            <Tooltip title={blocked ? t(blocked) : undefined}>
              <Button
                type="primary"
                icon={<EditOutlined />}
                disabled={!p || !!blocked}
                onClick={() => setEditOpen(true)}
                data-testid="project-edit"
              >
                {t('common.edit')}
              </Button>
            </Tooltip>
          </>
        }
      />
      <PendingOffers />
      {blocked ? <Alert type="info" showIcon title={t(blocked)} style={{ marginBottom: 16 }} /> : null}
      <Row gutter={[16, 16]}>
        <Col xs={24}>
          <OverviewCards projectId={current.id} />
        </Col>
        <Col xs={24} xxl={14}>
          <Card
            title={t('project.facts')}
            extra={
              <Button
                type="link"
                icon={<FundProjectionScreenOutlined />}
                onClick={() => navigate('/overview/preview/datascreen')}
              >
                {t('project.viewDataScreen')}
              </Button>
            }
          >
            {project.isLoading || !p ? (
              <Skeleton active />
            ) : (
              <Descriptions column={{ xs: 1, sm: 2, lg: 3, xxl: 2 }} size="small" data-testid="project-facts">
                <Descriptions.Item label={t('project.name')}>
                  <span data-testid="project-facts-name">{p.name}</span>
                  {p.isDemo ? (
                    <Tag color="gold" style={{ marginLeft: 8 }}>
                      {t('project.demo')}
                    </Tag>
                  ) : null}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.type')}>{t(`netMode.${p.netMode}`)}</Descriptions.Item>
                <Descriptions.Item label={t('project.scenario')}>
                  {scenarioLabel(p.scenario)}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.location')}>
                  {p.location || t('common.none')}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.address')}>
                  {p.address || t('common.none')}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.timeZone')}>
                  {formatTimeZone(p.timeZone)}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.right')}>{t(rightKey(p))}</Descriptions.Item>
                <Descriptions.Item label={t('project.property')}>
                  {p.isDemo ? t(propertyKey(p)) : <ProjectTags project={p} />}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.owner')}>{p.ownerAccount}</Descriptions.Item>
                <Descriptions.Item label={t('project.devices')}>{p.deviceCount}</Descriptions.Item>
                <Descriptions.Item label={t('project.created')}>
                  {formatDateTimeInZone(p.createdAt, p.timeZone)}
                </Descriptions.Item>
                <Descriptions.Item label={t('project.updated')}>
                  {formatDateTimeInZone(p.updatedAt, p.timeZone)}
                </Descriptions.Item>
              </Descriptions>
            )}
          </Card>
        </Col>
        <Col xs={24} xxl={10}>
          <Card title={t('project.recentLogs')} ref={logsBox}>
            <Table<AuditView>
              rowKey="id"
              size="small"
              loading={logs.isLoading}
              dataSource={logs.data?.items ?? []}
              pagination={false}
              // A phone scrolls the rows sideways rather than squeezing each column to a letter.
              scroll={{ x: 560 }}
              data-testid="project-logs"
              locale={{
                emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('project.noLogs')} />,
              }}
              columns={[
                {
                  title: t('project.logTime'),
                  dataIndex: 'at',
                  key: 'at',
                  // The project's activity on its own clock (SPEC.md §3 time zone), not the browser's.
                  render: (s: string) => (
                    <span style={{ whiteSpace: 'nowrap' }}>
                      {p ? formatDateTimeInZone(s, p.timeZone) : formatDateTime(s)}
                    </span>
                  ),
                  width: 150,
                },
                { title: t('project.logAccount'), dataIndex: 'account', key: 'account', ellipsis: true },
                {
                  title: t('project.logAction'),
                  key: 'action',
                  width: 150,
                  render: (_: unknown, a) => t(auditActionKey(a), { defaultValue: a.action }),
                },
                {
                  title: t('project.logEntity'),
                  key: 'entity',
                  ellipsis: true,
                  render: (_: unknown, a) => (
                    <span data-testid={`log-subject-${a.id}`}>
                      {t(auditEntityKey(a), { defaultValue: a.entity })}{' '}
                      {auditSubject(a, deviceNames.data ?? new Map())}
                    </span>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <ProjectFormModal open={editOpen} project={p ?? null} onClose={() => setEditOpen(false)} />
    </>
  );
}
