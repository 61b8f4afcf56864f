import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Tree-shaken ECharts: only the line chart, its grid, tooltip and legend, on canvas. This module is
// imported by the stats pages alone, so it loads with their lazy route chunk.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface ChartSeries {
  name: string;
  /** One value per x label; null = nothing reported then (a gap). */
  data: (number | null)[];
}

/** A line chart of time series; `format` writes values with units (protocol formatters). */
export function TimeChart({
  labels,
  series,
  format,
  height = 260,
  testId,
  ariaLabel,
}: {
  labels: string[];
  series: ChartSeries[];
  format: (v: number) => string;
  height?: number;
  testId?: string;
  ariaLabel: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, undefined, { renderer: 'canvas' });
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
        animation: false,
        grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
        legend: { top: 0, type: 'scroll' },
        tooltip: {
          trigger: 'axis',
          valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '–'),
        },
        xAxis: { type: 'category', data: labels, boundaryGap: false },
        yAxis: { type: 'value', axisLabel: { formatter: (v: number) => format(v) } },
        series: series.map((s) => ({
          name: s.name,
          type: 'line',
          showSymbol: false,
          connectNulls: false,
          data: s.data,
        })),
      },
      { notMerge: true },
    );
  }, [labels, series, format]);

  return (
    <div ref={box} role="img" aria-label={ariaLabel} data-testid={testId} style={{ width: '100%', height }} />
  );
}
