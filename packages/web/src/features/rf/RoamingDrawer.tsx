import {
  LIMITS,
  type RfDeviceView,
  validateAccessThreshold,
  validateLoadBalanceClients,
} from '@beacon/protocol';
import { Button, Drawer, Form, InputNumber, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { rfApi } from './api.ts';

interface Props {
  projectId: number;
  devices: RfDeviceView[];
  onClose(saved: boolean): void;
}

/** The roaming tuner of the chosen APs: access threshold, band steering, load balancing. */
export function RoamingDrawer({ projectId, devices, onClose }: Props) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const first = devices[0];
  const [threshold, setThreshold] = useState<number | null>(first?.radios[0]?.accessThreshold ?? null);
  const [steering, setSteering] = useState(first?.bandSteering ?? false);
  const [clients, setClients] = useState<number | null>(first?.loadBalanceClients ?? 0);
  const [saving, setSaving] = useState(false);
  const thresholdCheck = threshold === null ? null : validateAccessThreshold(threshold);
  const clientsCheck = validateLoadBalanceClients(clients ?? Number.NaN);
  const save = async () => {
    setSaving(true);
    try {
      await rfApi.roaming(projectId, {
        devices: devices.map((d) => ({
          sn: d.sn,
          ...(threshold !== null ? { accessThreshold: threshold } : {}),
          bandSteering: steering,
          loadBalanceClients: clients ?? 0,
        })),
      });
      showSuccess(t('rf.roaming.saved'));
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
      title={t('rf.roaming.title', { count: devices.length })}
      width={phone ? '100%' : 440}
      onClose={() => onClose(false)}
      data-testid="rf-roaming"
      extra={
        <Space>
          <Button onClick={() => onClose(false)}>{t('rf.cancel')}</Button>
          <Button
            type="primary"
            loading={saving}
            disabled={!!thresholdCheck || !!clientsCheck}
            onClick={save}
            data-testid="rf-roaming-save"
          >
            {t('rf.apply')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('rf.roaming.explain')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item
          label={t('rf.threshold')}
          htmlFor="rf-roaming-threshold"
          validateStatus={thresholdCheck ? 'error' : undefined}
          help={thresholdCheck?.message ?? t('rf.thresholdHelp')}
        >
          <InputNumber
            id="rf-roaming-threshold"
            min={-100}
            max={0}
            precision={0}
            value={threshold}
            onChange={(v) => setThreshold(v)}
            addonAfter="dBm"
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label={t('rf.roaming.steering')} htmlFor="rf-steering">
          <Switch id="rf-steering" checked={steering} onChange={setSteering} />
        </Form.Item>
        <Form.Item
          label={t('rf.roaming.balance')}
          htmlFor="rf-balance"
          validateStatus={clientsCheck ? 'error' : undefined}
          help={clientsCheck?.message ?? t('rf.roaming.balanceHelp')}
        >
          <InputNumber
            id="rf-balance"
            min={0}
            max={LIMITS.CLIENTS_PER_BAND + 10}
            precision={0}
            value={clients}
            onChange={(v) => setClients(v)}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
