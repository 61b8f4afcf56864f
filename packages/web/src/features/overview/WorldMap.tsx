import type { DataScreenCountry } from '@beacon/protocol';
import { Empty } from 'antd';
import { MapChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from './countries.ts';

// Only what the map draws (tree-shaken); the world's shapes come in a chunk of their own (worldGeo.ts).
echarts.use([MapChart, TooltipComponent, SVGRenderer]);

const MAP = 'beacon-world';
let registered: Promise<void> | null = null;

/** Registers the world's GeoJSON with ECharts once per page (loaded on first use). */
function loadWorld(): Promise<void> {
  registered ??= import('./worldGeo.ts').then(({ worldGeoJson }) => {
    echarts.registerMap(MAP, worldGeoJson() as unknown as Parameters<typeof echarts.registerMap>[1]);
  });
  return registered;
}

const TEXT = '#e6f4ff';

/**
 * The data screen's world map (docs/decisions/0045): an ECharts map series over Natural Earth's
 * countries, the chosen ones (at most 5) highlighted with the devices of the viewer's projects
 * located there. The same figures as a list beside it: small countries the 1:110m map leaves out
 * still show, and screen readers read the list (the drawing is one labelled image).
 */
export function WorldMap({
  countries,
  loading,
}: {
  countries: readonly DataScreenCountry[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let live = true;
    let observer: ResizeObserver | undefined;
    void loadWorld().then(() => {
      if (!live || !box.current) return;
      const instance = echarts.init(box.current, 'dark', { renderer: 'svg' });
      chart.current = instance;
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      live = false;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!ready) return;
    const devicesLabel = (c: DataScreenCountry) => t('dataScreen.mapDevices', { count: c.devices });
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: {
          trigger: 'item',
          formatter: (p: { name: string; data?: DataScreenCountry }) =>
            p.data
              ? `${countryName(p.name)}<br/>${devicesLabel(p.data)} · ${t('dataScreen.mapOnline', { count: p.data.online })}`
              : '',
        },
        series: [
          {
            type: 'map',
            map: MAP,
            roam: false,
            zoom: 1.15,
            top: 8,
            bottom: 8,
            selectedMode: false,
            itemStyle: { areaColor: '#16325c', borderColor: '#2b4c7e', borderWidth: 0.5 },
            emphasis: { disabled: true },
            label: { show: false },
            data: countries.map((c) => ({
              ...c,
              name: c.code,
              value: c.devices,
              itemStyle: { areaColor: c.devices > 0 ? '#fa8c16' : '#d4b106', borderColor: '#ffd591' },
              label: {
                show: true,
                color: TEXT,
                fontSize: 12,
                fontWeight: 600,
                lineHeight: 16,
                backgroundColor: 'rgba(6, 20, 40, 0.85)',
                borderColor: '#fa8c16',
                borderWidth: 1,
                borderRadius: 4,
                padding: [2, 6],
                formatter: () => `${countryName(c.code)}\n${devicesLabel(c)}`,
              },
            })),
          },
        ],
      },
      { notMerge: true },
    );
  }, [ready, countries, t]);

  return (
    <div>
      <div
        ref={box}
        role="img"
        aria-label={t('dataScreen.mapLabel')}
        data-testid="data-screen-map"
        style={{ width: '100%', height: 'clamp(200px, 28vw, 340px)' }}
      />
      {countries.length === 0 && !loading ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={<span style={{ color: TEXT }}>{t('dataScreen.noCountries')}</span>}
        />
      ) : (
        <ul
          data-testid="data-screen-countries-list"
          aria-label={t('dataScreen.mapListLabel')}
          style={{
            listStyle: 'none',
            margin: '8px 0 0',
            padding: 0,
            display: 'flex',
            flexWrap: 'wrap',
            gap: 8,
          }}
        >
          {countries.map((c) => (
            <li
              key={c.code}
              data-testid={`data-screen-country-${c.code}`}
              style={{
                display: 'flex',
                alignItems: 'baseline',
                gap: 8,
                padding: '6px 10px',
                borderRadius: 8,
                background: 'rgba(250, 140, 22, 0.12)',
                border: '1px solid rgba(250, 140, 22, 0.5)',
              }}
            >
              <span style={{ fontWeight: 500 }}>{countryName(c.code)}</span>
              <span data-testid={`data-screen-country-${c.code}-devices`} style={{ fontWeight: 600 }}>
                {t('dataScreen.mapDevices', { count: c.devices })}
              </span>
              <span style={{ fontSize: 12 }}>{t('dataScreen.mapOnline', { count: c.online })}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
