import { EnvironmentFilled } from '@ant-design/icons';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { countryName } from './countries.ts';

/**
 * The data screen's "map": the chosen countries (at most 5) as markers, not a world map — a world
 * GeoJSON is megabytes for five pins (docs/decisions/0041).
 */
export function CountryMarkers({ countries }: { countries: readonly string[] }) {
  const { t } = useTranslation();
  if (countries.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={{ color: '#e6f4ff' }}>{t('dataScreen.noCountries')}</span>}
      />
    );
  }
  return (
    <ul
      data-testid="data-screen-countries-list"
      style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 12 }}
    >
      {countries.map((code) => (
        <li
          key={code}
          data-testid={`data-screen-country-${code}`}
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            padding: '8px 12px',
            borderRadius: 8,
            background: 'rgba(64, 169, 255, 0.12)',
            border: '1px solid rgba(64, 169, 255, 0.45)',
          }}
        >
          <EnvironmentFilled aria-hidden style={{ color: '#69b1ff', fontSize: 18 }} />
          <span style={{ fontWeight: 500 }}>{countryName(code)}</span>
          <span style={{ opacity: 0.85, fontSize: 12 }}>{code}</span>
        </li>
      ))}
    </ul>
  );
}
