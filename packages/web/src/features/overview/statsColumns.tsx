import type { ProjectListItem, ProjectListQuery } from '@beacon/protocol';
import type { TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import { HealthTag } from './HealthTag.tsx';

type Sort = ProjectListQuery['sort'];

/** The project list's count columns (devices, online, clients, health), sorted by the server. */
export function statsColumns(
  t: TFunction,
  sort: Sort,
  order: 'asc' | 'desc',
): TableColumnType<ProjectListItem>[] {
  const sortOrder = (key: Sort) => (sort === key ? (order === 'asc' ? 'ascend' : 'descend') : null);
  return [
    {
      title: t('project.devices'),
      key: 'devices',
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('devices'),
      render: (_: unknown, p) => <span data-testid={`project-devices-${p.id}`}>{p.stats.total}</span>,
    },
    {
      title: t('overview.online'),
      key: 'online',
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('online'),
      render: (_: unknown, p) => (
        <span data-testid={`project-online-${p.id}`} title={t('overview.onlineOf', p.stats)}>
          {p.stats.online} / {p.stats.total}
        </span>
      ),
    },
    {
      title: t('overview.clients'),
      key: 'clients',
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('clients'),
      render: (_: unknown, p) => <span data-testid={`project-clients-${p.id}`}>{p.stats.clients}</span>,
    },
    {
      title: t('overview.health'),
      key: 'health',
      sorter: true,
      sortOrder: sortOrder('health'),
      render: (_: unknown, p) => <HealthTag health={p.stats.health} testId={`project-health-${p.id}`} />,
    },
  ];
}
