import { BookOutlined } from '@ant-design/icons';
import { HELP_ROUTES, routeUrl } from '@beacon/protocol';
import { Card, Col, Input, Layout, Menu, Row, Table, Tag, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { type CodeRow, codeRows } from './advice.ts';

const TOPICS = ['devices', 'codes', 'protocol'] as const;
type Topic = (typeof TOPICS)[number];

/** The help centre (SPEC.md §2): adding devices, the result codes and what to do, the device protocol. */
export function HelpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { topic } = useParams();
  const current: Topic = TOPICS.includes(topic as Topic) ? (topic as Topic) : 'devices';
  return (
    <Layout style={{ minHeight: '100dvh', background: 'transparent' }}>
      <div style={{ maxWidth: 1100, width: '100%', margin: '0 auto', padding: 16 }}>
        <PageTitle title={t('help.title')} />
        <Typography.Paragraph>
          <Link to="/">{t('help.back')}</Link>
        </Typography.Paragraph>
        <nav aria-label={t('help.topics')}>
          <Menu
            mode="horizontal"
            selectedKeys={[current]}
            onClick={({ key }) => navigate(`/help/${key}`)}
            items={TOPICS.map((k) => ({
              key: k,
              label: <span data-testid={`help-topic-${k}`}>{t(`help.${k}.title`)}</span>,
            }))}
            style={{ marginBottom: 16 }}
          />
        </nav>
        <main>{current === 'devices' ? <AddDevices /> : current === 'codes' ? <Codes /> : <Protocol />}</main>
      </div>
    </Layout>
  );
}

function AddDevices() {
  const { t } = useTranslation();
  const steps = t('help.devices.steps', { returnObjects: true }) as string[];
  return (
    <Card title={<h2 style={{ margin: 0, fontSize: 18 }}>{t('help.devices.title')}</h2>}>
      <Typography.Paragraph>{t('help.devices.intro')}</Typography.Paragraph>
      <ol data-testid="help-devices-steps">
        {steps.map((s) => (
          <li key={s}>
            <Typography.Paragraph style={{ marginBottom: 8 }}>{s}</Typography.Paragraph>
          </li>
        ))}
      </ol>
      <Typography.Paragraph type="secondary">{t('help.devices.limits')}</Typography.Paragraph>
    </Card>
  );
}

function Codes() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const rows = useMemo(codeRows, []);
  const box = useRef<HTMLDivElement>(null);
  useKeyboardScroll(box, t('help.codes.title'));
  const shown = rows.filter(
    (r) =>
      q.trim() === '' ||
      String(r.code).includes(q.trim()) ||
      r.message.toLowerCase().includes(q.trim().toLowerCase()),
  );
  return (
    <Card title={<h2 style={{ margin: 0, fontSize: 18 }}>{t('help.codes.title')}</h2>}>
      <Typography.Paragraph>{t('help.codes.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('help.codes.search')}
        aria-label={t('help.codes.search')}
        onChange={(e) => setQ(e.target.value)}
        style={{ maxWidth: 360, marginBottom: 12 }}
        data-testid="help-codes-search"
      />
      <div ref={box}>
        <Table<CodeRow>
          rowKey="code"
          size="small"
          dataSource={shown}
          pagination={{ pageSize: 50, showSizeChanger: false }}
          scroll={{ x: 'max-content' }}
          data-testid="help-codes"
          columns={[
            { title: t('help.codes.code'), dataIndex: 'code', key: 'code', width: 80 },
            { title: t('help.codes.message'), dataIndex: 'message', key: 'message' },
            {
              title: t('help.codes.status'),
              dataIndex: 'status',
              key: 'status',
              render: (s: number) => <Tag>{s}</Tag>,
            },
            {
              title: t('help.codes.advice'),
              dataIndex: 'adviceKey',
              key: 'advice',
              render: (k: string) => t(`help.advice.${k}`),
            },
          ]}
        />
      </div>
    </Card>
  );
}

function Protocol() {
  const { t } = useTranslation();
  const topics = t('help.protocol.points', { returnObjects: true }) as string[];
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <Card title={<h2 style={{ margin: 0, fontSize: 18 }}>{t('help.protocol.title')}</h2>}>
          <Typography.Paragraph>{t('help.protocol.intro')}</Typography.Paragraph>
          <ul>
            {topics.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          <Typography.Paragraph>
            <a href={routeUrl(HELP_ROUTES.deviceProtocol)} data-testid="help-protocol-document">
              <BookOutlined /> {t('help.protocol.document')}
            </a>
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('help.protocol.more')}</Typography.Paragraph>
        </Card>
      </Col>
    </Row>
  );
}
