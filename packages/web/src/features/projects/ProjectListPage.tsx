import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  PROJECT_TIME_RANGES,
  type ProjectListItem,
  type ProjectListQuery,
  type ProjectTimeRange,
  type ProjectView,
} from '@beacon/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Select, Space, Table, type TableProps, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { currentProject, selectProject } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { formatDateTime, formatTimeZone } from '../../util/format.ts';
import { REFRESH_MS } from '../overview/api.ts';
import { statsColumns } from '../overview/statsColumns.tsx';
import { PendingOffers } from '../sharing/PendingOffers.tsx';
import { propertyKey } from './labels.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { useScenarioLabel } from './ScenarioSelect.tsx';

type SortField = ProjectListQuery['sort'];

export function writeBlockReason(p: ProjectView): string | null {
  if (p.isDemo) return 'project.demoNoWrite';
  if (p.right !== 'rw') return 'project.readOnlyNoWrite';
  return null;
}

export function ProjectListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const scenarioLabel = useScenarioLabel();
  const [range, setRange] = useState<ProjectTimeRange | undefined>(undefined);
  const [q, setQ] = useState('');
  const [netMode, setNetMode] = useState<0 | 1 | undefined>(undefined);
  const [sort, setSort] = useState<SortField>('createdAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [editing, setEditing] = useState<ProjectView | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  const query = { range, q: q || undefined, netMode, sort, order, page, pageSize };
  const list = useQuery({
    queryKey: ['projects', 'list', query],
    queryFn: () => api.projects(query),
    placeholderData: keepPreviousData,
    // Device counts change with the devices of every listed project: refreshed every 30 s.
    refetchInterval: REFRESH_MS,
  });

  const remove = useMutation({
    mutationFn: (p: ProjectView) => withLoadState('saving', () => api.deleteProject(p.id)),
    onSuccess: (_d, p) => {
      showSuccess(t('project.deleted_ok'));
      if (currentProject.get()?.id === p.id) selectProject(null);
      queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
    onError: (e) => showError(errorText(e)),
  });

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };

  const filtered = !!(range || q || netMode !== undefined);

  const columns: TableProps<ProjectListItem>['columns'] = [
    {
      title: t('project.name'),
      dataIndex: 'name',
      key: 'name',
      // The name stays in view while the other columns scroll sideways (phones).
      fixed: 'left',
      sorter: true,
      sortOrder: sort === 'name' ? (order === 'asc' ? 'ascend' : 'descend') : null,
      render: (name: string, p) => (
        <Space size={4} wrap>
          <span style={{ fontWeight: 500 }}>{name}</span>
          {p.isDemo ? (
            <Tag color="gold" data-testid="tag-demo">
              {t('project.demo')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('project.type'),
      dataIndex: 'netMode',
      key: 'netMode',
      render: (m: number) => t(`netMode.${m}`),
    },
    {
      title: t('project.scenario'),
      dataIndex: 'scenario',
      key: 'scenario',
      render: (s: string) => scenarioLabel(s),
    },
    {
      title: t('project.location'),
      dataIndex: 'location',
      key: 'location',
      render: (s: string) => s || t('common.none'),
    },
    {
      title: t('project.timeZone'),
      dataIndex: 'timeZone',
      key: 'timeZone',
      render: (zone: string) => formatTimeZone(zone),
    },
    {
      title: t('project.property'),
      dataIndex: 'property',
      key: 'property',
      render: (_: string, p: ProjectView) => t(propertyKey(p)),
    },
    ...statsColumns(t, sort, order),
    {
      title: t('project.created'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: sort === 'createdAt' ? (order === 'asc' ? 'ascend' : 'descend') : null,
      render: (s: string) => formatDateTime(s),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 110,
      render: (_: unknown, p) => {
        const blocked = writeBlockReason(p);
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: stops row clicks reaching the row handler
          // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users reach the buttons themselves
          <span onClick={(e) => e.stopPropagation()}>
            <Tooltip title={blocked ? t(blocked) : t('common.edit')}>
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label={t('common.edit')}
                disabled={!!blocked}
                data-testid={`project-edit-${p.id}`}
                onClick={() => {
                  setEditing(p);
                  setFormOpen(true);
                }}
              />
            </Tooltip>
            <DeleteButton
              confirm={t('project.deleteConfirm', { name: p.name })}
              description={t('project.deleteHint')}
              confirmTestId="delete-confirm"
              blockedReason={blocked ? t(blocked) : undefined}
              testId={`project-delete-${p.id}`}
              onConfirm={() => remove.mutateAsync(p).catch(() => undefined)}
            />
          </span>
        );
      },
    },
  ];

  return (
    <>
      <PageTitle
        title={t('route.overviewList')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="create-project">
            {t('project.create')}
          </Button>
        }
      />
      <PendingOffers />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            placeholder={t('project.searchPlaceholder')}
            aria-label={t('project.searchPlaceholder')}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="project-search"
            onSearch={(v) => {
              setQ(v.trim());
              setPage(1);
            }}
          />
          <Select
            style={{ width: 170 }}
            value={range ?? 'all'}
            aria-label={t('project.rangeFilter')}
            data-testid="project-range"
            onChange={(v: string) => {
              setRange(v === 'all' ? undefined : (v as ProjectTimeRange));
              setPage(1);
            }}
            options={[
              { value: 'all', label: t('range.all') },
              ...PROJECT_TIME_RANGES.map((r) => ({ value: r, label: t(`range.${r}`) })),
            ]}
          />
          <Select
            style={{ width: 140 }}
            value={netMode ?? -1}
            aria-label={t('project.typeFilter')}
            data-testid="project-netmode-filter"
            onChange={(v: number) => {
              setNetMode(v === 0 || v === 1 ? v : undefined);
              setPage(1);
            }}
            options={[
              { value: -1, label: t('netMode.all') },
              { value: 0, label: t('netMode.0') },
              { value: 1, label: t('netMode.1') },
            ]}
          />
        </Space>
        <Table<ProjectListItem>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.items ?? []}
          loading={list.isFetching}
          size="middle"
          scroll={{ x: 960 }}
          onRow={(p) => ({
            'data-testid': `project-row-${p.id}`,
            style: { cursor: 'pointer' },
            onClick: () => {
              selectProject(p);
              navigate('/overview/preview');
            },
          })}
          onChange={(pagination, _filters, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            if (s?.order) {
              setSort((s.columnKey as SortField) ?? 'createdAt');
              setOrder(s.order === 'ascend' ? 'asc' : 'desc');
            } else {
              setSort('createdAt');
              setOrder('desc');
            }
            if (pagination.pageSize && pagination.pageSize !== pageSize) {
              setPageSize(pagination.pageSize);
              setPage(1);
            } else {
              setPage(pagination.current ?? 1);
            }
          }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('project.total', { total }),
          }}
          locale={{
            emptyText: (
              <Empty
                data-testid="projects-empty"
                description={filtered ? t('project.emptyFiltered') : t('project.empty')}
              >
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={openCreate}
                  data-testid="create-project-empty"
                >
                  {t('project.create')}
                </Button>
              </Empty>
            ),
          }}
        />
      </Card>
      <ProjectFormModal open={formOpen} project={editing} onClose={() => setFormOpen(false)} />
    </>
  );
}
