import type { BackupView } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Collapse, Form, Modal, Row, Select, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../state/feedback.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { backupApi } from './api.ts';

const show = (v: unknown, none: string) =>
  v === undefined ? none : typeof v === 'string' ? v : JSON.stringify(v);

/** A backup beside another backup or the configuration its device runs now: the differences, then both documents. */
export function CompareModal({
  projectId,
  backup,
  others,
  onClose,
}: {
  projectId: number;
  backup: BackupView;
  others: BackupView[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const time = useProjectTime(projectId);
  const [other, setOther] = useState<number | 'running'>('running');
  const compare = useQuery({
    queryKey: ['backups', projectId, 'compare', backup.id, other],
    queryFn: () =>
      backupApi.compare(projectId, backup.id, other === 'running' ? {} : { other: String(other) }),
    retry: false,
  });
  const data = compare.data;
  const none = t('backup.compare.missing');

  return (
    <Modal
      open
      width={960}
      title={t('backup.compare.title', { fileName: backup.fileName })}
      footer={null}
      onCancel={onClose}
      data-testid="compare-modal"
    >
      <Form layout="vertical">
        <Form.Item label={t('backup.compare.with')} htmlFor="compare-with">
          <Select
            id="compare-with"
            value={other}
            onChange={setOther}
            options={[
              { value: 'running' as const, label: t('backup.compare.running') },
              ...others.map((b) => ({
                value: b.id,
                label: t('backup.compare.backupOption', {
                  fileName: b.fileName,
                  time: time.format(b.takenAt),
                }),
              })),
            ]}
            data-testid="compare-with"
          />
        </Form.Item>
      </Form>
      {compare.isLoading ? <Skeleton active /> : null}
      {compare.error ? (
        <Alert type="error" showIcon message={errorText(compare.error)} data-testid="compare-error" />
      ) : null}
      {data ? (
        <>
          {data.changes.length === 0 ? (
            <Alert type="success" showIcon message={t('backup.compare.same')} data-testid="compare-same" />
          ) : (
            <>
              <Typography.Paragraph strong data-testid="compare-count">
                {t('backup.compare.changes', { count: data.changes.length })}
              </Typography.Paragraph>
              <Table
                rowKey="path"
                size="small"
                pagination={false}
                scroll={{ x: 'max-content' }}
                dataSource={data.changes}
                data-testid="compare-changes"
                columns={[
                  { key: 'path', dataIndex: 'path', title: t('backup.compare.path') },
                  { key: 'before', title: data.left.label, render: (_, c) => show(c.before, none) },
                  { key: 'after', title: data.right.label, render: (_, c) => show(c.after, none) },
                ]}
              />
            </>
          )}
          <Collapse
            style={{ marginTop: 16 }}
            items={[
              {
                key: 'docs',
                label: t('backup.compare.documents'),
                children: (
                  <Row gutter={[16, 16]}>
                    {[data.left, data.right].map((side, i) => (
                      <Col xs={24} md={12} key={i === 0 ? 'left' : 'right'}>
                        <Typography.Text strong>{side.label}</Typography.Text>
                        <pre style={{ fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                          {JSON.stringify(side.document, null, 2)}
                        </pre>
                      </Col>
                    ))}
                  </Row>
                ),
              },
            ]}
          />
        </>
      ) : null}
    </Modal>
  );
}
