import { PlusOutlined } from '@ant-design/icons';
import { AccountRole, DEVICE_TYPES } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useSession } from '../../session/session.ts';
import { solutionsApi } from './api.ts';
import { ModelUploadModal } from './ModelUploadModal.tsx';

/** /models — every model the console manages: type, capabilities, image; searchable. */
export function ModelsPage() {
  const { t } = useTranslation();
  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, t('models.title'));
  const [q, setQ] = useState('');
  const [type, setType] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  // Only a manufacturer account adds models (decision 0055; the server refuses others with 5402).
  const manufacturer = useSession().data?.account.role === AccountRole.MANUFACTURER;
  const models = useQuery({
    queryKey: ['models', q, type],
    queryFn: () => solutionsApi.models({ q: q || undefined, type }),
  });
  return (
    <>
      <PageTitle title={t('models.title')} />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            aria-label={t('models.search')}
            placeholder={t('models.search')}
            onSearch={setQ}
            style={{ width: 260 }}
            data-testid="models-search"
          />
          <Select
            allowClear
            aria-label={t('models.type')}
            placeholder={t('models.allTypes')}
            value={type}
            onChange={setType}
            options={DEVICE_TYPES.map((d) => ({ value: d, label: d }))}
            style={{ width: 160 }}
          />
          {manufacturer && (
            <Button icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="model-upload-open">
              {t('models.add')}
            </Button>
          )}
        </Space>
        {adding && (
          <ModelUploadModal
            onClose={(added) => {
              setAdding(false);
              if (added) void models.refetch();
            }}
          />
        )}
        <div ref={tableBox}>
          <Table
            rowKey="model"
            size="small"
            loading={models.isLoading}
            dataSource={models.data ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 900 }}
            data-testid="models-table"
            columns={[
              {
                title: t('models.image'),
                dataIndex: 'image',
                width: 72,
                render: (src: string, m) => <img src={src} alt={m.model} width={48} height={48} />,
              },
              { title: t('models.model'), dataIndex: 'model' },
              { title: t('models.brand'), dataIndex: 'brand' },
              { title: t('models.type'), dataIndex: 'type' },
              { title: t('models.description'), dataIndex: 'description' },
              {
                title: t('models.ports'),
                key: 'ports',
                render: (_, m) =>
                  t('models.portsValue', { ports: m.ports, poe: m.poePorts, budget: m.poeBudget }),
              },
              { title: t('models.bands'), dataIndex: 'bands', render: (b: string[]) => b.join(', ') || '—' },
              { title: t('models.vlans'), key: 'vlan', render: (_, m) => `${m.minVlan}–${m.maxVlan}` },
              {
                title: t('models.capabilities'),
                dataIndex: 'capabilities',
                render: (c: string[]) => (
                  <Space size={[4, 4]} wrap>
                    {c.map((x) => (
                      <Tag key={x}>{x}</Tag>
                    ))}
                  </Space>
                ),
              },
            ]}
          />
        </div>
      </Card>
    </>
  );
}
