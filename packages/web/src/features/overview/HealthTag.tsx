import { healthLevel } from '@beacon/protocol';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOUR = { good: 'success', fair: 'warning', poor: 'error', none: 'default' } as const;
/** On the data screen's dark background: light tints that keep the contrast (WCAG AA). */
const DARK_COLOUR = { good: '#95de64', fair: '#ffd666', poor: '#ffa39e', none: '#e6f4ff' } as const;

/** A project's health: the share of healthy devices and its level (good, fair, poor, none). */
export function HealthTag({
  health,
  testId,
  dark,
}: {
  health: number | null;
  testId?: string;
  dark?: boolean;
}) {
  const { t } = useTranslation();
  const level = healthLevel(health);
  const label =
    health === null ? t('overview.healthLevel.none') : `${t(`overview.healthLevel.${level}`)} · ${health}%`;
  return (
    <Tooltip title={t('overview.healthHint')}>
      {dark ? (
        <span data-testid={testId} data-level={level} style={{ color: DARK_COLOUR[level], fontWeight: 600 }}>
          {t('overview.health')}: {label}
        </span>
      ) : (
        <Tag color={COLOUR[level]} data-testid={testId} data-level={level} style={{ marginInlineEnd: 0 }}>
          {label}
        </Tag>
      )}
    </Tooltip>
  );
}
