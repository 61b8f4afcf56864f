import type { TypeStats } from '@beacon/protocol';
import { Empty } from 'antd';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

// Only what this chart draws (tree-shaken); the chunk loads with the data screen's route.
echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** Devices online and offline, and clients now, per device type (Apache ECharts, SVG). */
export function TypeChart({ byType }: { byType: readonly TypeStats[] }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

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
        legend: { top: 0, textStyle: { color: '#e6f4ff' } },
        grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
        xAxis: {
          type: 'category',
          data: byType.map((r) => t(`devices.type.${r.type}`, { defaultValue: r.type })),
          axisLabel: { color: '#e6f4ff' },
        },
        yAxis: { type: 'value', minInterval: 1, axisLabel: { color: '#e6f4ff' } },
        series: [
          {
            name: t('overview.online'),
            type: 'bar',
            stack: 'devices',
            data: byType.map((r) => r.online),
            itemStyle: { color: '#52c41a' },
          },
          {
            name: t('overview.offline'),
            type: 'bar',
            stack: 'devices',
            data: byType.map((r) => r.offline + r.busy),
            itemStyle: { color: '#ff7875' },
          },
          {
            name: t('overview.clients'),
            type: 'bar',
            data: byType.map((r) => r.clients),
            itemStyle: { color: '#69b1ff' },
          },
        ],
      },
      { notMerge: true },
    );
  }, [byType, t]);

  return (
    <div style={{ position: 'relative' }}>
      <div
        ref={box}
        role="img"
        aria-label={t('dataScreen.chartLabel')}
        data-testid="data-screen-chart"
        style={{ width: '100%', height: 280, visibility: byType.length ? 'visible' : 'hidden' }}
      />
      {byType.length === 0 ? (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<span style={{ color: '#e6f4ff' }}>{t('dataScreen.noChartData')}</span>}
          />
        </div>
      ) : null}
    </div>
  );
}
