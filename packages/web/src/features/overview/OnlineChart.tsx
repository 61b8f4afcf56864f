import type { OnlineSeriesView } from '@beacon/protocol';
import { Empty } from 'antd';
import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../util/format.ts';

// Only what this chart draws (tree-shaken); the chunk loads with the data screen's route.
echarts.use([LineChart, GridComponent, TooltipComponent, SVGRenderer]);

/**
 * Devices online over the last 24 hours (docs/decisions/0045): per 5-minute bucket, the devices that
 * reported telemetry in it, as the server stored them (nothing computed here). A gap: nobody reported.
 */
export function OnlineChart({ series }: { series: OnlineSeriesView | undefined }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const points = series?.points ?? [];
  const reported = points.filter((p) => p.online !== null).length;
  const empty = series !== undefined && reported === 0;

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, 'dark', { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: { trigger: 'axis' },
        grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
        xAxis: {
          type: 'time',
          axisLabel: { color: '#e6f4ff', hideOverlap: true },
        },
        yAxis: { type: 'value', minInterval: 1, axisLabel: { color: '#e6f4ff' } },
        series: [
          {
            name: t('dataScreen.onlineSeries'),
            type: 'line',
            // A few reported buckets (a device just came) must still show: dots until the line is dense.
            showSymbol: reported < 50,
            symbolSize: 6,
            connectNulls: false,
            areaStyle: { opacity: 0.15 },
            lineStyle: { width: 2, color: '#95de64' },
            itemStyle: { color: '#95de64' },
            data: points.map((p) => [p.at, p.online]),
          },
        ],
      },
      { notMerge: true },
    );
  }, [points, reported, t]);

  const last = [...points].reverse().find((p) => p.online !== null);
  return (
    <div style={{ position: 'relative' }}>
      <div
        ref={box}
        role="img"
        aria-label={
          last
            ? t('dataScreen.onlineChartLabelLast', { count: last.online ?? 0, time: formatDateTime(last.at) })
            : t('dataScreen.onlineChartLabel')
        }
        data-testid="data-screen-online-chart"
        data-points={reported}
        style={{ width: '100%', height: 280, visibility: empty ? 'hidden' : 'visible' }}
      />
      {empty ? (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<span style={{ color: '#e6f4ff' }}>{t('dataScreen.noOnlineData')}</span>}
          />
        </div>
      ) : null}
    </div>
  );
}
