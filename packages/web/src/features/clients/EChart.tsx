import { LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what the client charts use (tree-shaken: lines, pies, their grid, legend and tooltip).
echarts.use([LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type EChartOption = echarts.EChartsCoreOption;

/** One ECharts chart that follows its box's size; `label` names it for screen readers. */
export function EChart({
  option,
  height = 280,
  label,
  testId,
}: {
  option: EChartOption;
  height?: number;
  label: string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const c = echarts.init(box.current, undefined, { renderer: 'svg' });
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return (
    <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} data-testid={testId} />
  );
}
