import { errorMessage, type RfDeviceView, type RfView } from '@beacon/protocol';
import { Badge, Button, Card, Space, Table, type TableProps, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInertMeasureRow } from '../../components/useInertMeasureRow.ts';
import { ManualDrawer } from './ManualDrawer.tsx';
import { RoamingDrawer } from './RoamingDrawer.tsx';

interface Props {
  projectId: number;
  view: RfView;
  writable: boolean;
  refresh(): void;
}

const STATUS_COLOR = { pending: 'processing', applied: 'success', failed: 'error' } as const;

/** The APs with their radios (saved and reported); chosen APs get manual settings or the roaming tuner. */
export function RadiosCard({ projectId, view, writable, refresh }: Props) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string[]>([]);
  const [drawer, setDrawer] = useState<'manual' | 'roaming' | null>(null);
  const chosen = view.devices.filter((d) => selected.includes(d.sn));
  const tableBox = useRef<HTMLDivElement>(null);
  useInertMeasureRow(tableBox);
  const columns: TableProps<RfDeviceView>['columns'] = [
    {
      title: t('rf.ap'),
      dataIndex: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (_: unknown, d) => (
        <Space direction="vertical" size={0}>
          <span>{d.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {d.model} · {d.sn}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('rf.state.label'),
      dataIndex: 'blocked',
      render: (_: unknown, d) => (
        <Space size={4} wrap>
          <Badge
            status={d.status === 0 || d.status === 9 ? 'default' : 'success'}
            text={d.status === 0 || d.status === 9 ? t('rf.offline') : t('rf.online')}
          />
          {d.optimised === 1 && <Tag color="green">{t('rf.optimised')}</Tag>}
          {d.adapting !== null && <Tag color="blue">{t('rf.adaptingTag', { progress: d.adapting })}</Tag>}
          {d.blocked !== null && d.blocked !== 36 && <Tag>{errorMessage(d.blocked)}</Tag>}
        </Space>
      ),
    },
    {
      title: t('rf.radios'),
      dataIndex: 'radios',
      render: (_: unknown, d) => (
        <Space direction="vertical" size={0}>
          {d.radios.map((r) => (
            <span key={r.band} data-testid={`rf-radio-${d.sn}-${r.band}`}>
              {r.reported
                ? t('rf.radioLine', {
                    band: r.band,
                    channel: r.reported.channel,
                    width: r.reported.width,
                    power: r.reported.power,
                    co: r.reported.coChannel,
                  })
                : t('rf.radioNone', { band: r.band })}
              {r.channel === 0 && ` · ${t('rf.auto')}`}
            </span>
          ))}
        </Space>
      ),
    },
    {
      title: t('rf.configStatus'),
      dataIndex: 'configStatus',
      render: (_: unknown, d) => (
        <Badge
          status={STATUS_COLOR[d.configStatus]}
          text={`${t(`rf.status.${d.configStatus}`)} (${d.reportedRevision}/${d.revision})`}
        />
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('rf.aps')}
      extra={
        <Space wrap>
          <Button
            disabled={!writable || chosen.length === 0}
            onClick={() => setDrawer('manual')}
            data-testid="rf-manual-open"
          >
            {t('rf.manual.open')}
          </Button>
          <Button
            disabled={!writable || chosen.length === 0}
            onClick={() => setDrawer('roaming')}
            data-testid="rf-roaming-open"
          >
            {t('rf.roaming.open')}
          </Button>
        </Space>
      }
    >
      <div ref={tableBox}>
        <Table
          size="small"
          rowKey="sn"
          columns={columns}
          dataSource={view.devices}
          pagination={view.devices.length > 20 ? { pageSize: 20 } : false}
          // An empty table must not scroll: axe wants a scroll region to hold something focusable.
          scroll={view.devices.length ? { x: 'max-content' } : undefined}
          rowSelection={
            writable
              ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }
              : undefined
          }
          locale={{ emptyText: t('rf.noAps') }}
          data-testid="rf-aps"
        />
      </div>
      {drawer === 'manual' && (
        <ManualDrawer
          projectId={projectId}
          country={view.country}
          devices={chosen}
          onClose={(saved) => {
            setDrawer(null);
            if (saved) refresh();
          }}
        />
      )}
      {drawer === 'roaming' && (
        <RoamingDrawer
          projectId={projectId}
          devices={chosen}
          onClose={(saved) => {
            setDrawer(null);
            if (saved) refresh();
          }}
        />
      )}
    </Card>
  );
}
