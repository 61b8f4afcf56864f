import { DownloadOutlined } from '@ant-design/icons';
import { DEVICE_TYPES, PIVOT_DIMENSIONS, type PivotDimension } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Select, Space, Table, Typography } from 'antd';
import { BarChart } from 'echarts/charts';
import * as echarts from 'echarts/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { showError } from '../../state/feedback.ts';
import { EChart } from '../clients/EChart.tsx';
import { saveFile, solutionsApi } from './api.ts';

echarts.use([BarChart]);

type Filters = Partial<Record<PivotDimension, string>>;

/** /reports/devices — activated devices pivoted by brand, type, model and location, with totals and a chart. */
export function PivotPage() {
  const { t } = useTranslation();
  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, t('reports.title'));
  const [rows, setRows] = useState<PivotDimension>('type');
  const [columns, setColumns] = useState<PivotDimension>('location');
  const [filters, setFilters] = useState<Filters>({});
  const query = { rows, columns, ...filters };
  const pivot = useQuery({ queryKey: ['reports', 'pivot', query], queryFn: () => solutionsApi.pivot(query) });
  const v = pivot.data;
  const dim = (d: PivotDimension) => t(`reports.dimensions.${d}`);
  const option = useMemo(
    () =>
      v
        ? {
            tooltip: { trigger: 'axis' },
            legend: { type: 'scroll', bottom: 0 },
            grid: { left: 40, right: 16, top: 16, bottom: 48 },
            xAxis: { type: 'category', data: v.rows.map((r) => r.key) },
            yAxis: { type: 'value', minInterval: 1 },
            series: v.columns.map((c) => ({
              name: c,
              type: 'bar',
              stack: 'total',
              data: v.rows.map((r) => r.cells[c] ?? 0),
            })),
          }
        : {},
    [v],
  );
  const exportXlsx = async () => {
    const q = Object.fromEntries(Object.entries(query).filter(([, x]) => x)) as Record<string, string>;
    if (!(await saveFile(solutionsApi.pivotExportUrl(q), 'activated-devices.xlsx')))
      showError(t('reports.exportFailed'));
  };
  const dimOptions = PIVOT_DIMENSIONS.map((d) => ({ value: d, label: dim(d) }));
  return (
    <>
      <PageTitle
        title={t('reports.title')}
        extra={
          <Button icon={<DownloadOutlined />} onClick={() => void exportXlsx()} data-testid="pivot-export">
            {t('reports.export')}
          </Button>
        }
      />
      <Card>
        <Typography.Paragraph type="secondary">{t('reports.hint')}</Typography.Paragraph>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('reports.rows')}
            value={rows}
            onChange={setRows}
            options={dimOptions}
            style={{ width: 150 }}
          />
          <Select
            aria-label={t('reports.columns')}
            value={columns}
            onChange={setColumns}
            options={dimOptions}
            style={{ width: 150 }}
          />
          {PIVOT_DIMENSIONS.map((d) => (
            <Select
              key={d}
              allowClear
              aria-label={t('reports.filterBy', { dimension: dim(d) })}
              placeholder={t('reports.all', { dimension: dim(d) })}
              value={filters[d]}
              onChange={(x) => setFilters({ ...filters, [d]: x })}
              options={(d === 'type' ? [...DEVICE_TYPES] : (v?.options[d] ?? [])).map((o) => ({
                value: o,
                label: o,
              }))}
              style={{ width: 160 }}
              data-testid={`pivot-filter-${d}`}
            />
          ))}
        </Space>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <div ref={tableBox}>
              <Table
                size="small"
                loading={pivot.isLoading}
                rowKey="key"
                pagination={false}
                scroll={{ x: 480 }}
                dataSource={v?.rows ?? []}
                data-testid="pivot-table"
                columns={[
                  { title: `${dim(rows)} \\ ${dim(columns)}`, dataIndex: 'key' },
                  ...(v?.columns ?? []).map((c) => ({
                    title: c,
                    key: c,
                    align: 'right' as const,
                    render: (_: unknown, r: { cells: Record<string, number> }) => r.cells[c] ?? 0,
                  })),
                  { title: t('reports.total'), dataIndex: 'total', align: 'right' as const },
                ]}
                summary={() =>
                  v ? (
                    <Table.Summary.Row>
                      <Table.Summary.Cell index={0}>
                        <strong>{t('reports.total')}</strong>
                      </Table.Summary.Cell>
                      {v.columns.map((c, i) => (
                        <Table.Summary.Cell key={c} index={i + 1} align="right">
                          {v.columnTotals[c] ?? 0}
                        </Table.Summary.Cell>
                      ))}
                      <Table.Summary.Cell index={v.columns.length + 1} align="right">
                        <strong data-testid="pivot-total">{v.total}</strong>
                      </Table.Summary.Cell>
                    </Table.Summary.Row>
                  ) : null
                }
              />
            </div>
          </Col>
          <Col xs={24} xl={12}>
            <EChart option={option} label={t('reports.chart')} testId="pivot-chart" />
          </Col>
        </Row>
      </Card>
    </>
  );
}
