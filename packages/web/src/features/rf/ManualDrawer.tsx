import {
  defaultWidth,
  type ManualRfBody,
  maxPowerFor,
  type RfDeviceView,
  validateAccessThreshold,
  validateRadioSetting,
} from '@beacon/protocol';
import { Alert, Button, Drawer, Form, InputNumber, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { rfApi } from './api.ts';
import { type BandSetting, ManualBandFields } from './ManualBandFields.tsx';

interface Props {
  projectId: number;
  country: string;
  devices: RfDeviceView[];
  onClose(saved: boolean): void;
}

type ManualRadio = ManualRfBody['radios'][number];

const initial = (country: string, band: string, on: boolean): BandSetting => ({
  on,
  width: defaultWidth(band),
  channel: 0,
  power: Math.min(20, maxPowerFor(country, band, 0)),
});

/**
 * Manual RF settings of the chosen APs: every band they all have, each changed or left as it is,
 * in one save; each band checked with the country's rules as typed.
 */
export function ManualDrawer({ projectId, country, devices, onClose }: Props) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  // Bands every chosen AP has.
  const bands = useMemo(
    () =>
      devices.reduce<string[]>((acc, d, i) => {
        const mine = d.radios.map((r) => r.band);
        return i === 0 ? mine : acc.filter((b) => mine.includes(b));
      }, []),
    [devices],
  );
  const [settings, setSettings] = useState<Record<string, BandSetting>>(() =>
    Object.fromEntries(bands.map((b, i) => [b, initial(country, b, i === 0)])),
  );
  const [threshold, setThreshold] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const chosen = bands.filter((b) => settings[b]?.on);
  const failures = Object.fromEntries(
    chosen.map((band) => {
      const s = settings[band];
      return [band, validateRadioSetting(country, { band, ...s, power: s.power ?? Number.NaN })];
    }),
  );
  const thresholdCheck = threshold === null ? null : validateAccessThreshold(threshold);
  const invalid = chosen.length === 0 || chosen.some((b) => failures[b]) || !!thresholdCheck;
  const save = async () => {
    if (invalid) return;
    setSaving(true);
    try {
      await rfApi.manual(projectId, {
        sns: devices.map((d) => d.sn),
        radios: chosen.map((band) => {
          const s = settings[band];
          return {
            band,
            channel: s.channel,
            width: s.width,
            power: s.power ?? 0,
            ...(threshold !== null ? { accessThreshold: threshold } : {}),
          } as ManualRadio;
        }),
      });
      showSuccess(t('rf.manual.saved'));
      onClose(true);
    } catch (e) {
      showError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      open
      title={t('rf.manual.title', { count: devices.length })}
      width={phone ? '100%' : 440}
      onClose={() => onClose(false)}
      data-testid="rf-manual"
      extra={
        <Space>
          <Button onClick={() => onClose(false)}>{t('rf.cancel')}</Button>
          <Button
            type="primary"
            loading={saving}
            disabled={invalid}
            onClick={save}
            data-testid="rf-manual-save"
          >
            {t('rf.apply')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('rf.manual.explain')}</Typography.Paragraph>
      {bands.length === 0 && <Alert type="warning" message={t('rf.manual.noBand')} />}
      <Form layout="vertical">
        {bands.map((band) => (
          <ManualBandFields
            key={band}
            band={band}
            country={country}
            value={settings[band]}
            failure={failures[band] ?? null}
            onChange={(next) => setSettings((all) => ({ ...all, [band]: next }))}
          />
        ))}
        <Form.Item
          label={t('rf.threshold')}
          htmlFor="rf-threshold"
          validateStatus={thresholdCheck ? 'error' : undefined}
          help={thresholdCheck?.message ?? t('rf.thresholdHelp')}
        >
          <InputNumber
            id="rf-threshold"
            min={-100}
            max={0}
            precision={0}
            value={threshold}
            onChange={(v) => setThreshold(v)}
            addonAfter="dBm"
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
