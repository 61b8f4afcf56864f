import { healthLevel } from '@beacon/protocol';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOUR = { good: 'success', fair: 'warning', poor: 'error', none: 'default' } as const;

/** A project's health: the share of healthy devices and its level (good, fair, poor, none). */
export function HealthTag({ health, testId }: { health: number | null; testId?: string }) {
  const { t } = useTranslation();
  const level = healthLevel(health);
  return (
    <Tooltip title={t('overview.healthHint')}>
      <Tag color={COLOUR[level]} data-testid={testId} data-level={level} style={{ marginInlineEnd: 0 }}>
        {health === null
          ? t('overview.healthLevel.none')
          : `${t(`overview.healthLevel.${level}`)} · ${health}%`}
      </Tag>
    </Tooltip>
  );
}
