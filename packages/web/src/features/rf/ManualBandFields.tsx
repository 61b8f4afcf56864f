import { allowedChannels, bandWidths, type Check, Codes, LIMITS, maxPowerFor } from '@beacon/protocol';
import { Checkbox, Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** One band's manual setting in the drawer: whether it changes, and its width, channel and power. */
export interface BandSetting {
  on: boolean;
  width: number;
  channel: number;
  power: number | null;
}

interface Props {
  band: string;
  country: string;
  value: BandSetting;
  /** The band's failure under the country's rules (validateRadioSetting), if it changes. */
  failure: Check;
  onChange(next: BandSetting): void;
}

// Failures that are about the power (beyond the country's limit, or not a number) show under it.
const POWER_CODES = new Set<number>([Codes.RF_POWER, Codes.FORM_DATA]);

export function ManualBandFields({ band, country, value, failure, onChange }: Props) {
  const { t } = useTranslation();
  const id = `rf-${band.replace('.', '')}`;
  const channels = allowedChannels(country, band, value.width);
  const powerFailure = failure && POWER_CODES.has(failure.code) ? failure : null;
  const channelFailure = failure && !POWER_CODES.has(failure.code) ? failure : null;
  return (
    <fieldset className="rf-band" data-testid={`rf-band-${band}`}>
      <legend>
        <Checkbox checked={value.on} onChange={(e) => onChange({ ...value, on: e.target.checked })}>
          {t('rf.manual.change', { band })}
        </Checkbox>
      </legend>
      {value.on && (
        <>
          <Form.Item label={t('rf.width')} htmlFor={`${id}-width`}>
            <Select
              id={`${id}-width`}
              value={value.width}
              options={bandWidths(band).map((w) => ({ value: w, label: `${w} MHz` }))}
              onChange={(w) =>
                onChange({
                  ...value,
                  width: w,
                  channel: allowedChannels(country, band, w).includes(value.channel) ? value.channel : 0,
                })
              }
            />
          </Form.Item>
          <Form.Item
            label={t('rf.channel')}
            htmlFor={`${id}-channel`}
            validateStatus={channelFailure ? 'error' : undefined}
            help={channelFailure?.message}
          >
            <Select
              id={`${id}-channel`}
              value={value.channel}
              options={[
                { value: 0, label: t('rf.auto') },
                ...channels.map((c) => ({ value: c, label: String(c) })),
              ]}
              onChange={(channel) => onChange({ ...value, channel })}
            />
          </Form.Item>
          <Form.Item
            label={t('rf.power', { max: maxPowerFor(country, band, value.channel) })}
            htmlFor={`${id}-power`}
            validateStatus={powerFailure ? 'error' : undefined}
            help={powerFailure?.message}
          >
            <InputNumber
              id={`${id}-power`}
              min={LIMITS.TX_POWER_MIN}
              max={LIMITS.TX_POWER_MAX}
              precision={0}
              value={value.power}
              onChange={(power) => onChange({ ...value, power })}
              addonAfter="dBm"
              style={{ width: '100%' }}
            />
          </Form.Item>
        </>
      )}
    </fieldset>
  );
}
