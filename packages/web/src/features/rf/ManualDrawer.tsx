import {
  allowedChannels,
  bandWidths,
  defaultWidth,
  LIMITS,
  maxPowerFor,
  type RfDeviceView,
  validateAccessThreshold,
  validateRadioSetting,
} from '@beacon/protocol';
import { Alert, Button, Drawer, Form, InputNumber, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { rfApi } from './api.ts';

interface Props {
  projectId: number;
  country: string;
  devices: RfDeviceView[];
  onClose(saved: boolean): void;
}

/** Manual RF settings of one band on the chosen APs, checked with the country's rules as typed. */
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
  const [band, setBand] = useState(bands[0] ?? '2.4G');
  const [width, setWidth] = useState<number>(defaultWidth(band));
  const [channel, setChannel] = useState(0);
  const [power, setPower] = useState<number | null>(Math.min(20, maxPowerFor(country, band, 0)));
  const [threshold, setThreshold] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const channels = allowedChannels(country, band, width);
  const setting = validateRadioSetting(country, { band, channel, width, power: power ?? Number.NaN });
  const thresholdCheck = threshold === null ? null : validateAccessThreshold(threshold);
  const failure = setting ?? thresholdCheck;
  const save = async () => {
    if (failure || power === null) return;
    setSaving(true);
    try {
      await rfApi.manual(projectId, {
        sns: devices.map((d) => d.sn),
        radios: [
          {
            band: band as '2.4G',
            channel,
            width: width as 20,
            power,
            ...(threshold !== null ? { accessThreshold: threshold } : {}),
          },
        ],
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
            disabled={!!failure || bands.length === 0}
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
        <Form.Item label={t('rf.band')} htmlFor="rf-band">
          <Select
            id="rf-band"
            value={band}
            options={bands.map((b) => ({ value: b, label: b }))}
            onChange={(b) => {
              setBand(b);
              setWidth(defaultWidth(b));
              setChannel(0);
            }}
          />
        </Form.Item>
        <Form.Item label={t('rf.width')} htmlFor="rf-width">
          <Select
            id="rf-width"
            value={width}
            options={bandWidths(band).map((w) => ({ value: w, label: `${w} MHz` }))}
            onChange={(w) => {
              setWidth(w);
              if (!allowedChannels(country, band, w).includes(channel)) setChannel(0);
            }}
          />
        </Form.Item>
        <Form.Item
          label={t('rf.channel')}
          htmlFor="rf-channel"
          validateStatus={setting && setting.code !== 5341 ? 'error' : undefined}
          help={setting && setting.code !== 5341 && setting.code !== 16 ? setting.message : undefined}
        >
          <Select
            id="rf-channel"
            value={channel}
            options={[
              { value: 0, label: t('rf.auto') },
              ...channels.map((c) => ({ value: c, label: String(c) })),
            ]}
            onChange={setChannel}
          />
        </Form.Item>
        <Form.Item
          label={t('rf.power', { max: maxPowerFor(country, band, channel) })}
          htmlFor="rf-power"
          validateStatus={setting && (setting.code === 5341 || setting.code === 16) ? 'error' : undefined}
          help={setting && (setting.code === 5341 || setting.code === 16) ? setting.message : undefined}
        >
          <InputNumber
            id="rf-power"
            min={LIMITS.TX_POWER_MIN}
            max={LIMITS.TX_POWER_MAX}
            precision={0}
            value={power}
            onChange={(v) => setPower(v)}
            addonAfter="dBm"
            style={{ width: '100%' }}
          />
        </Form.Item>
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
