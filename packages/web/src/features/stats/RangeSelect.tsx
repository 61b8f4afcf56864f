import { STATS_RANGES, type StatsRange } from '@beacon/protocol';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';

/** SPEC.md §9 status ranges: 12 h, 24 h, 72 h, 7 d, 30 d. */
export function RangeSelect({ value, onChange }: { value: StatsRange; onChange(range: StatsRange): void }) {
  const { t } = useTranslation();
  return (
    <Segmented
      aria-label={t('stats.range')}
      data-testid="stats-range"
      value={value}
      onChange={(v) => onChange(v as StatsRange)}
      options={STATS_RANGES.map((r) => ({ value: r, label: t(`stats.ranges.${r}`) }))}
    />
  );
}
