import { WALL_LOSS_DB, WALL_MATERIALS } from '@beacon/protocol';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cssRgb, LEVEL_STOPS, OVERLAP_COLOURS } from './colours.ts';
import { type Layer, WALL_COLOURS } from './PlanCanvas.tsx';

const swatch = (background: string) => (
  <span
    aria-hidden="true"
    style={{ display: 'inline-block', width: 14, height: 14, background, borderRadius: 2 }}
  />
);

/** What the colours mean: the layer's scale and the wall materials with their losses. */
export function Legend({ layer }: { layer: Layer }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={4} data-testid="wifi-map-legend">
      {layer === 'coverage' ? (
        <Space wrap size={12}>
          <Typography.Text strong>{t('wifiMap.legend.coverage')}</Typography.Text>
          {LEVEL_STOPS.map((s) => (
            <Space key={s.dbm} size={4}>
              {swatch(cssRgb(s.rgb))}
              <Typography.Text>{t('wifiMap.legend.dbm', { value: s.dbm })}</Typography.Text>
            </Space>
          ))}
        </Space>
      ) : null}
      {layer === 'overlap' ? (
        <Space wrap size={12}>
          <Typography.Text strong>{t('wifiMap.legend.overlap')}</Typography.Text>
          {OVERLAP_COLOURS.map((c, i) => (
            <Space key={cssRgb(c)} size={4}>
              {swatch(cssRgb(c))}
              <Typography.Text>
                {t('wifiMap.legend.others', {
                  count: i + 1,
                  plus: i === OVERLAP_COLOURS.length - 1 ? '+' : '',
                })}
              </Typography.Text>
            </Space>
          ))}
        </Space>
      ) : null}
      <Space wrap size={12}>
        <Typography.Text strong>{t('wifiMap.legend.walls')}</Typography.Text>
        {WALL_MATERIALS.map((m) => (
          <Space key={m} size={4}>
            {swatch(WALL_COLOURS[m])}
            <Typography.Text>
              {t('wifiMap.legend.wall', {
                material: t(`wifiMap.material.${m}`),
                b24: WALL_LOSS_DB[m].b24,
                b5: WALL_LOSS_DB[m].b5,
              })}
            </Typography.Text>
          </Space>
        ))}
      </Space>
    </Space>
  );
}
