import type { NetworkDeviceView, NetworkDocumentInput, NetworkView } from '@beacon/protocol';
import {
  Alert,
  App as AntApp,
  Badge,
  Card,
  Skeleton,
  Space,
  Table,
  type TableProps,
  Tag,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { networkApi } from './api.ts';
import { checkDocument, useNetwork } from './useNetwork.ts';

export interface SectionProps {
  view: NetworkView;
  writable: boolean;
  /**
   * Saves `doc` as the next revision: checked with the server's rules, the devices it touches
   * confirmed, then saved on the revision the screen shows. Resolves true when saved.
   */
  apply(doc: NetworkDocumentInput): Promise<boolean>;
}

const STATUS_COLOR = { pending: 'processing', applied: 'success', failed: 'error' } as const;

/** How many devices run the latest network revision, and each of them. */
export function ProgressCard({ view }: { view: NetworkView }) {
  const { t } = useTranslation();
  const { progress } = view;
  const columns: TableProps<NetworkDeviceView>['columns'] = [
    {
      title: t('network.device'),
      dataIndex: 'sn',
      sorter: (a, b) => (a.name || a.sn).localeCompare(b.name || b.sn),
      render: (_: unknown, d) => d.name || d.sn,
    },
    {
      title: t('network.model'),
      dataIndex: 'model',
      filters: [...new Set(view.devices.map((d) => d.model))].map((m) => ({ text: m, value: m })),
      onFilter: (value, d) => d.model === value,
    },
    {
      title: t('network.configStatus'),
      dataIndex: 'status',
      filters: (['pending', 'applied', 'failed'] as const).map((s) => ({
        text: t(`network.status.${s}`),
        value: s,
      })),
      onFilter: (value, d) => d.status === value,
      render: (_: unknown, d) => (
        <Space size={4} wrap>
          <Badge
            status={STATUS_COLOR[d.status]}
            text={<span data-testid={`network-status-${d.sn}`}>{t(`network.status.${d.status}`)}</span>}
          />
          {d.note && <Tag>{t(`network.note.${d.note}`)}</Tag>}
          {d.code !== null && d.status === 'failed' && <Tag>{d.code}</Tag>}
        </Space>
      ),
    },
    {
      title: t('network.revision'),
      dataIndex: 'revision',
      sorter: (a, b) => a.revision - b.revision,
      render: (_: unknown, d) => `${d.reportedRevision} / ${d.revision}`,
    },
  ];
  return (
    <Card
      size="small"
      title={t('network.progressTitle', { revision: view.revision })}
      style={{ marginTop: 16 }}
      data-testid="network-progress"
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Badge
          status={progress.pending > 0 ? 'processing' : 'default'}
          text={
            <span data-testid="network-pending">
              {t('network.count.pending', { count: progress.pending })}
            </span>
          }
        />
        <Badge
          status="success"
          text={
            <span data-testid="network-applied">
              {t('network.count.applied', { count: progress.applied })}
            </span>
          }
        />
        <Badge
          status="error"
          text={
            <span data-testid="network-failed">{t('network.count.failed', { count: progress.failed })}</span>
          }
        />
        {progress.skipped > 0 && <Tag>{t('network.count.skipped', { count: progress.skipped })}</Tag>}
      </Space>
      <Table
        size="small"
        rowKey="sn"
        columns={columns}
        dataSource={view.devices}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('network.noDevices') }}
      />
    </Card>
  );
}

/** A network screen: its title, its section (children) and the devices' progress. */
export function NetworkPage({
  title,
  testId,
  children,
  progress = true,
}: {
  title: string;
  testId: string;
  children: (props: SectionProps) => ReactNode;
  progress?: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const { project, projectId, view, loading, refresh, show } = useNetwork();
  if (!project || projectId === undefined) return <NoProject title={title} />;
  const writable = canWrite(project);

  const apply = async (doc: NetworkDocumentInput): Promise<boolean> => {
    if (!view) return false;
    const failure = checkDocument(view, doc);
    if (failure) {
      showError(`${failure.message} (${failure.code})`);
      return false;
    }
    let touched: NetworkDeviceView[];
    try {
      touched = (await networkApi.preview(projectId, doc)).devices.filter((d) => d.changed);
    } catch (e) {
      showError(errorText(e));
      return false;
    }
    const confirmed = await modal.confirm({
      title: t('network.confirmTitle'),
      content: (
        <div data-testid="network-preview">
          {touched.length === 0 ? (
            <Typography.Paragraph>{t('network.touchesNone')}</Typography.Paragraph>
          ) : (
            <>
              <Typography.Paragraph>{t('network.touches', { count: touched.length })}</Typography.Paragraph>
              <ul>
                {touched.map((d) => (
                  <li key={d.sn}>
                    {d.name || d.sn} ({d.model}){d.note ? ` — ${t(`network.note.${d.note}`)}` : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ),
      okText: t('network.save'),
      cancelText: t('network.cancel'),
    });
    if (!confirmed) return false;
    try {
      show(await networkApi.save(projectId, view.revision, doc));
      showSuccess(t('network.saved'));
      return true;
    } catch (e) {
      showError(errorText(e));
      await refresh();
      return false;
    }
  };

  return (
    <div data-testid={testId}>
      <PageTitle title={title} />
      {!writable && (
        <Alert type="info" showIcon message={t('network.readOnly')} style={{ marginBottom: 16 }} />
      )}
      {loading || !view ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <>
          {children({ view, writable, apply })}
          {progress && <ProgressCard view={view} />}
        </>
      )}
    </div>
  );
}
