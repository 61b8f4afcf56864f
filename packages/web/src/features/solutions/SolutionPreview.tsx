import type { Recommendation, SolutionLine } from '@beacon/protocol';
import { Card, Col, List, Row, Table, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';

/** The device list (model, quantity, remarks), how it was computed, deployment advice, advantages. */
export function SolutionPreview({ recommendation }: { recommendation: Recommendation }) {
  const { t } = useTranslation();
  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, t('solutions.deviceList'));
  return (
    <Row gutter={[16, 16]} data-testid="solution-preview">
      <Col span={24}>
        <Card title={t('solutions.deviceList')}>
          <Typography.Paragraph>
            {t('solutions.demand', { clients: recommendation.clients, mbps: recommendation.demandMbps })}
          </Typography.Paragraph>
          <div ref={tableBox}>
            <Table<SolutionLine>
              rowKey="role"
              size="small"
              pagination={false}
              scroll={{ x: 640 }}
              dataSource={recommendation.lines}
              columns={[
                {
                  title: t('solutions.role'),
                  dataIndex: 'role',
                  render: (r: string) => t(`solutions.roles.${r}`),
                },
                { title: t('solutions.model'), dataIndex: 'model' },
                {
                  title: t('solutions.quantity'),
                  dataIndex: 'quantity',
                  render: (q: number, l) => <span data-testid={`solution-qty-${l.role}`}>{q}</span>,
                },
                { title: t('solutions.remarks'), dataIndex: 'remark' },
                { title: t('solutions.why'), dataIndex: 'reason' },
              ]}
            />
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('solutions.howComputed')}>
          <List
            size="small"
            dataSource={recommendation.steps}
            renderItem={(s) => (
              <List.Item>
                <Typography.Text>
                  <strong>
                    {s.label}: {s.value}
                  </strong>{' '}
                  — {s.reason}
                </Typography.Text>
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('solutions.advice')}>
          <List
            size="small"
            dataSource={recommendation.advice}
            renderItem={(a) => <List.Item>{a}</List.Item>}
          />
        </Card>
        <Card title={t('solutions.advantages')} style={{ marginTop: 16 }}>
          <List
            size="small"
            dataSource={recommendation.advantages}
            renderItem={(a) => <List.Item>{a}</List.Item>}
          />
        </Card>
      </Col>
    </Row>
  );
}
