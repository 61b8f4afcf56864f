import { DEVICE_LOG_TYPES, EventLevel } from '@beacon/protocol';
import { Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogFilter, LogKind } from './api.ts';

/** Time ranges offered (hours back from now); `all` is everything kept. */
export const TIME_RANGES = ['1h', '24h', '7d', '30d', '90d', '180d', 'all', 'custom'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
const HOURS: Record<TimeRange, number | null> = {
  '1h': 1,
  '24h': 24,
  '7d': 168,
  '30d': 720,
  '90d': 2160,
  '180d': 4320,
  all: null,
  custom: null,
};

/** The `from` of a range, at the moment of the query. */
export function fromOf(range: TimeRange, now = Date.now()): string | undefined {
  const hours = HOURS[range];
  return hours === null ? undefined : new Date(now - hours * 3_600_000).toISOString();
}

export interface FilterState {
  range: TimeRange;
  /** With range custom: the browser's local date and time (input type datetime-local). */
  customFrom?: string;
  customTo?: string;
  sn?: string;
  type?: string;
  level?: EventLevel;
}

const isoOf = (local: string | undefined) => {
  const t = local ? Date.parse(local) : Number.NaN;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

/** A custom range whose start is after its end (the server would answer 5230). */
export const isReversed = (state: FilterState) => {
  const from = isoOf(state.customFrom);
  const to = isoOf(state.customTo);
  return state.range === 'custom' && !!from && !!to && from > to;
};

export function filterOf(state: FilterState, kind: LogKind): LogFilter {
  const custom = state.range === 'custom' && !isReversed(state);
  return {
    from: custom ? isoOf(state.customFrom) : fromOf(state.range),
    to: custom ? isoOf(state.customTo) : undefined,
    sn: state.sn || undefined,
    type: state.type || undefined,
    level: kind === 'device' ? state.level || undefined : undefined,
  };
}

/** Time range, device and type (and level for the device log); every input has a label. */
export function LogFilters({
  kind,
  value,
  onChange,
  devices,
}: {
  kind: LogKind;
  value: FilterState;
  onChange(next: FilterState): void;
  devices: { sn: string; name: string }[];
}) {
  const { t } = useTranslation();
  const id = (name: string) => `log-${kind}-${name}`;
  return (
    <Space wrap size={[8, 8]} style={{ marginBottom: 12 }} data-testid={`log-filters-${kind}`}>
      <Select<TimeRange>
        id={id('range')}
        aria-label={t('logs.filter.range')}
        value={value.range}
        style={{ width: 150 }}
        onChange={(range) => onChange({ ...value, range })}
        options={TIME_RANGES.map((r) => ({ value: r, label: t(`logs.range.${r}`) }))}
        data-testid={id('range')}
      />
      {value.range === 'custom' ? (
        <>
          <Input
            type="datetime-local"
            id={id('from')}
            aria-label={t('logs.filter.from')}
            value={value.customFrom ?? ''}
            style={{ width: 200 }}
            onChange={(e) => onChange({ ...value, customFrom: e.target.value || undefined })}
            status={isReversed(value) ? 'error' : undefined}
            data-testid={id('from')}
          />
          <Input
            type="datetime-local"
            id={id('to')}
            aria-label={t('logs.filter.to')}
            value={value.customTo ?? ''}
            style={{ width: 200 }}
            onChange={(e) => onChange({ ...value, customTo: e.target.value || undefined })}
            status={isReversed(value) ? 'error' : undefined}
            data-testid={id('to')}
          />
          {isReversed(value) ? (
            <Typography.Text type="danger" role="alert">
              {t('logs.filter.reversed')}
            </Typography.Text>
          ) : null}
        </>
      ) : null}
      <Select<string>
        id={id('device')}
        aria-label={t('logs.filter.device')}
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t('logs.filter.allDevices')}
        value={value.sn}
        style={{ width: 200 }}
        onChange={(sn) => onChange({ ...value, sn })}
        options={devices.map((d) => ({ value: d.sn, label: d.name ? `${d.name} (${d.sn})` : d.sn }))}
        data-testid={id('device')}
      />
      {kind === 'device' ? (
        <>
          <Select<string>
            id={id('type')}
            aria-label={t('logs.filter.type')}
            allowClear
            showSearch
            placeholder={t('logs.filter.allTypes')}
            value={value.type}
            style={{ width: 180 }}
            onChange={(type) => onChange({ ...value, type })}
            options={DEVICE_LOG_TYPES.map((e) => ({
              value: e,
              label: t(`logs.event.${e}`, { defaultValue: e }),
            }))}
            data-testid={id('type')}
          />
          <Select<EventLevel>
            id={id('level')}
            aria-label={t('logs.filter.level')}
            allowClear
            placeholder={t('logs.filter.allLevels')}
            value={value.level}
            style={{ width: 140 }}
            onChange={(level) => onChange({ ...value, level })}
            options={Object.values(EventLevel).map((l) => ({ value: l, label: t(`logs.level.${l}`) }))}
            data-testid={id('level')}
          />
        </>
      ) : (
        <Input.Search
          id={id('type')}
          aria-label={t('logs.filter.action')}
          allowClear
          placeholder={t('logs.filter.action')}
          defaultValue={value.type}
          style={{ width: 200 }}
          onSearch={(type) => onChange({ ...value, type: type.trim() || undefined })}
          data-testid={id('type')}
        />
      )}
    </Space>
  );
}
