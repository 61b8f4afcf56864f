import { formatDateTimeInZone, type RfRecord, type RfRunList } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, type TableProps, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { rfApi } from './api.ts';

type Run = RfRunList['items'][number];

const STATE_COLOR = {
  running: 'processing',
  completed: 'success',
  timed_out: 'error',
  skipped: 'default',
} as const;

const arrow = (a: number | null | undefined, b: number | null | undefined) => `${a ?? '–'} → ${b ?? '–'}`;

/** One run's records: each radio before and after. */
function Records({ projectId, runId }: { projectId: number; runId: number }) {
  const { t } = useTranslation();
  const run = useQuery({
    queryKey: ['rf-run', projectId, runId],
    queryFn: () => rfApi.run(projectId, runId),
  });
  const columns: TableProps<RfRecord>['columns'] = [
    { title: t('rf.ap'), dataIndex: 'name' },
    { title: t('rf.band'), dataIndex: 'band' },
    { title: t('rf.channel'), render: (_: unknown, r) => arrow(r.before.channel, r.after?.channel) },
    { title: t('rf.log.power'), render: (_: unknown, r) => arrow(r.before.power, r.after?.power) },
    { title: t('rf.log.rssi'), render: (_: unknown, r) => arrow(r.before.rssi, r.after?.rssi) },
    { title: t('rf.log.noise'), render: (_: unknown, r) => arrow(r.before.noise, r.after?.noise) },
    {
      title: t('rf.log.coChannel'),
      render: (_: unknown, r) => arrow(r.before.coChannel, r.after?.coChannel),
    },
  ];
  return (
    <Table
      size="small"
      rowKey={(r) => `${r.sn}-${r.band}`}
      columns={columns}
      dataSource={run.data?.records ?? []}
      loading={run.isLoading}
      pagination={false}
      scroll={run.data?.records.length ? { x: 'max-content' } : undefined}
      locale={{ emptyText: t('rf.log.noRecords') }}
    />
  );
}

/** The optimisation log: the latest 20 runs, each with its records before and after. */
export function LogCard({ projectId, runs, timeZone }: { projectId: number; runs: Run[]; timeZone: string }) {
  const { t } = useTranslation();
  const columns: TableProps<Run>['columns'] = [
    {
      title: t('rf.log.started'),
      dataIndex: 'startedAt',
      render: (v: string) => formatDateTimeInZone(v, timeZone),
    },
    { title: t('rf.log.type'), dataIndex: 'kind', render: (v: Run['kind']) => t(`rf.kind.${v}`) },
    {
      title: t('rf.state.label'),
      dataIndex: 'state',
      render: (_: unknown, r) => (
        <Tag color={STATE_COLOR[r.state]} data-testid={`rf-run-state-${r.id}`}>
          {r.state === 'running' ? `${t('rf.state.running')} ${r.progress} %` : t(`rf.state.${r.state}`)}
          {r.code !== null ? ` (${r.code})` : ''}
        </Tag>
      ),
    },
    { title: t('rf.log.aps'), dataIndex: 'devices' },
    { title: t('rf.log.score'), render: (_: unknown, r) => arrow(r.scoreBefore, r.scoreAfter) },
    { title: t('rf.log.coChannel'), render: (_: unknown, r) => arrow(r.coChannelBefore, r.coChannelAfter) },
    { title: t('rf.log.by'), dataIndex: 'author' },
  ];
  return (
    <Card size="small" title={t('rf.log.title')} data-testid="rf-log">
      <Table
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={runs}
        pagination={false}
        scroll={runs.length ? { x: 'max-content' } : undefined}
        expandable={{
          expandedRowRender: (r) => <Records projectId={projectId} runId={r.id} />,
          rowExpandable: (r) => r.state !== 'skipped',
        }}
        locale={{ emptyText: t('rf.log.empty') }}
      />
    </Card>
  );
}
