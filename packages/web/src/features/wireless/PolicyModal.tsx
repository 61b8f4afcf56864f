import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  allowedCiphers,
  EncryptionMode,
  LIMITS,
  requiresPassphrase,
  requiresRadius,
  WIFI_BANDS,
  type WifiCheck,
  type WifiPolicy,
  type WifiPolicyInput,
  WifiScope,
  type WifiView,
} from '@beacon/protocol';
import {
  Alert,
  Button,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPolicy } from './useWifi.ts';

interface Values {
  name: string;
  ssid: string;
  encryption: number;
  cipher: string | null;
  password: string;
  keyUpdateInterval: number | null;
  vlan: number | null;
  maxClients: number | null;
  hidden: boolean;
  enabled: boolean;
  guest: boolean;
  guestRateKbps: number | null;
  clientIsolation: boolean;
  radiusIp: string;
  radiusPort: number | null;
  radiusPassword: string;
  bands: string[];
  scope: WifiScope;
  devices: string[];
  schedule: { start: string; end: string }[];
  signalExtension: boolean;
}

const ENCRYPTIONS = Object.values(EncryptionMode);

function toValues(p: WifiPolicy | null): Values {
  return {
    name: p?.name ?? '',
    ssid: p?.ssid ?? '',
    encryption: p?.encryption ?? EncryptionMode.WPA2_PSK,
    cipher: p ? p.cipher : 'aes',
    password: p?.password ?? '',
    keyUpdateInterval: p?.keyUpdateInterval ?? 0,
    vlan: p?.vlan ?? null,
    maxClients: p?.maxClients ?? 64,
    hidden: p?.hidden ?? false,
    enabled: p?.enabled ?? true,
    guest: p?.guest ?? false,
    guestRateKbps: p?.guestRateKbps ?? 0,
    clientIsolation: p?.clientIsolation ?? false,
    radiusIp: p?.radius?.ip ?? '',
    radiusPort: p?.radius?.port ?? 1812,
    radiusPassword: p?.radius?.password ?? '',
    bands: p?.bands ?? ['2.4G', '5G'],
    scope: p?.scope ?? WifiScope.ALL,
    devices: p?.devices ?? [],
    schedule: p?.schedule ?? [],
    signalExtension: p?.signalExtension ?? false,
  };
}

/** The policy the form describes (numbers left empty become values the rules refuse). */
function fromValues(v: Values, id: number | undefined): WifiPolicyInput {
  const radius = requiresRadius(v.encryption)
    ? { ip: (v.radiusIp ?? '').trim(), port: v.radiusPort ?? Number.NaN, password: v.radiusPassword ?? '' }
    : null;
  return {
    id,
    name: v.name ?? '',
    ssid: v.ssid ?? '',
    encryption: v.encryption,
    cipher: (v.cipher ?? null) as WifiPolicyInput['cipher'],
    password: requiresPassphrase(v.encryption) ? (v.password ?? '') : '',
    keyUpdateInterval: v.keyUpdateInterval ?? 0,
    vlan: v.vlan ?? undefined,
    maxClients: v.maxClients ?? Number.NaN,
    hidden: !!v.hidden,
    enabled: v.enabled !== false,
    guest: !!v.guest,
    guestRateKbps: v.guestRateKbps ?? 0,
    clientIsolation: !!v.clientIsolation,
    radius,
    bands: (v.bands ?? []) as WifiPolicyInput['bands'],
    scope: v.scope,
    devices: v.scope === WifiScope.DEVICES ? (v.devices ?? []) : [],
    schedule: (v.schedule ?? []).map((s) => ({ start: (s?.start ?? '').trim(), end: (s?.end ?? '').trim() })),
    signalExtension: v.encryption === EncryptionMode.WPA_PSK ? false : !!v.signalExtension,
  };
}

export interface PolicyModalProps {
  view: WifiView;
  /** The index of the policy edited, null for a new one; undefined: closed. */
  editing: number | null | undefined;
  onClose(): void;
  /** Saves the policy; resolves true when saved. */
  onSave(policy: WifiPolicyInput, index: number | null): Promise<boolean>;
}

/**
 * Add or edit one Wi-Fi policy. Checked as the user types with the rules the server applies to the
 * whole set of policies (protocol validateWifiDocument, the project's devices included); WPA-PSK
 * says before saving that it turns signal extension off.
 */
export function PolicyModal({ view, editing, onClose, onSave }: PolicyModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<WifiCheck>(null);
  const [saving, setSaving] = useState(false);
  const open = editing !== undefined;
  const current = editing === null || editing === undefined ? null : view.document.policies[editing];
  const encryption = Form.useWatch('encryption', form) ?? EncryptionMode.WPA2_PSK;
  const guest = Form.useWatch('guest', form);
  const scope = Form.useWatch('scope', form);

  // Each opening starts from the policy edited (or a new one's defaults), not the last one's values;
  // a refetch of the view while the form is open (the devices' progress) leaves what is typed alone.
  const latest = useRef(current);
  latest.current = current;
  useEffect(() => {
    if (editing === undefined) return;
    form.resetFields();
    form.setFieldsValue(toValues(latest.current ?? null));
    setFailure(null);
  }, [editing, form]);

  const recheck = () => {
    if (editing === undefined) return;
    const values = form.getFieldsValue(true) as Values;
    setFailure(checkPolicy(view, fromValues(values, current?.id), editing));
  };

  const onValuesChange = (changed: Partial<Values>) => {
    if (changed.encryption !== undefined) {
      const ciphers = allowedCiphers(changed.encryption);
      const cipher = form.getFieldValue('cipher') as string | null;
      if (!ciphers.includes(cipher as never)) form.setFieldValue('cipher', ciphers[0] ?? null);
      if (changed.encryption === EncryptionMode.WPA_PSK) form.setFieldValue('signalExtension', false);
    }
    recheck();
  };

  const submit = async () => {
    const values = form.getFieldsValue(true) as Values;
    const policy = fromValues(values, current?.id);
    const f = checkPolicy(view, policy, editing ?? null);
    setFailure(f);
    if (f) return;
    setSaving(true);
    const saved = await onSave(policy, editing ?? null);
    setSaving(false);
    if (saved) onClose();
  };

  const ciphers = allowedCiphers(encryption);
  return (
    <Modal
      open={open}
      title={t(current ? 'wifi.edit' : 'wifi.add')}
      onCancel={onClose}
      onOk={submit}
      okText={t('wifi.save')}
      cancelText={t('wifi.cancel')}
      okButtonProps={{ loading: saving, disabled: !!failure, 'data-testid': 'wifi-submit' } as never}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onValuesChange={onValuesChange} data-testid="wifi-form">
        <Form.Item name="name" label={t('wifi.name')} extra={t('wifi.nameHint')}>
          <Input data-testid="wifi-name" maxLength={32} />
        </Form.Item>
        <Form.Item name="ssid" label={t('wifi.ssid')}>
          <Input data-testid="wifi-ssid" />
        </Form.Item>
        <Form.Item name="encryption" label={t('wifi.encryption')}>
          <Select
            aria-label={t('wifi.encryption')}
            data-testid="wifi-encryption"
            options={ENCRYPTIONS.map((m) => ({ value: m, label: t(`wifi.encryptionMode.${m}`) }))}
          />
        </Form.Item>
        {encryption === EncryptionMode.WPA_PSK && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('wifi.wpaPskNotice')}
            data-testid="wifi-wpa-psk-notice"
          />
        )}
        {ciphers.length > 0 && (
          <Form.Item name="cipher" label={t('wifi.cipher')}>
            <Select
              aria-label={t('wifi.cipher')}
              data-testid="wifi-cipher"
              options={ciphers.map((c) => ({ value: c, label: t(`wifi.cipherName.${c}`) }))}
            />
          </Form.Item>
        )}
        {requiresPassphrase(encryption) && (
          <Form.Item name="password" label={t('wifi.password')} extra={t('wifi.passwordHint')}>
            <Input.Password data-testid="wifi-password" autoComplete="new-password" />
          </Form.Item>
        )}
        {requiresRadius(encryption) && (
          <Space wrap align="start">
            <Form.Item name="radiusIp" label={t('wifi.radiusIp')}>
              <Input data-testid="wifi-radius-ip" />
            </Form.Item>
            <Form.Item name="radiusPort" label={t('wifi.radiusPort')}>
              <InputNumber min={1} max={65535} data-testid="wifi-radius-port" />
            </Form.Item>
            <Form.Item name="radiusPassword" label={t('wifi.radiusPassword')}>
              <Input.Password data-testid="wifi-radius-password" autoComplete="new-password" />
            </Form.Item>
          </Space>
        )}
        <Form.Item name="bands" label={t('wifi.bands')}>
          <Checkbox.Group
            data-testid="wifi-bands"
            options={WIFI_BANDS.map((b) => ({ value: b, label: b }))}
          />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="maxClients" label={t('wifi.maxClients')}>
            <InputNumber min={1} max={LIMITS.MAX_CLIENTS_MAX} data-testid="wifi-max-clients" />
          </Form.Item>
          <Form.Item name="vlan" label={t('wifi.vlan')}>
            <InputNumber min={1} max={4094} placeholder={t('wifi.vlanNone')} data-testid="wifi-vlan" />
          </Form.Item>
          <Form.Item name="keyUpdateInterval" label={t('wifi.keyUpdateInterval')}>
            <InputNumber min={0} max={LIMITS.KEY_UPDATE_MAX} data-testid="wifi-key-update" />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="enabled" label={t('wifi.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="hidden" label={t('wifi.hidden')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="signalExtension" label={t('wifi.signalExtension')} valuePropName="checked">
            <Switch disabled={encryption === EncryptionMode.WPA_PSK} />
          </Form.Item>
          <Form.Item name="guest" label={t('wifi.guest')} valuePropName="checked">
            <Switch data-testid="wifi-guest" />
          </Form.Item>
        </Space>
        {guest && (
          <Space wrap align="start">
            <Form.Item name="guestRateKbps" label={t('wifi.guestRate')}>
              <InputNumber min={0} max={LIMITS.GUEST_RATE_MAX_KBPS} data-testid="wifi-guest-rate" />
            </Form.Item>
            <Form.Item name="clientIsolation" label={t('wifi.clientIsolation')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
        )}
        <Form.Item name="scope" label={t('wifi.scope')}>
          <Radio.Group
            options={[
              { value: WifiScope.ALL, label: t('wifi.scopeAll') },
              { value: WifiScope.DEVICES, label: t('wifi.scopeDevices') },
            ]}
          />
        </Form.Item>
        {scope === WifiScope.DEVICES && (
          <Form.Item name="devices" label={t('wifi.devices')}>
            <Select
              mode="multiple"
              aria-label={t('wifi.devices')}
              data-testid="wifi-devices"
              options={view.devices.map((d) => ({ value: d.sn, label: `${d.name || d.sn} (${d.model})` }))}
            />
          </Form.Item>
        )}
        <Typography.Text strong>{t('wifi.schedule')}</Typography.Text>
        <Typography.Paragraph type="secondary">
          {t('wifi.scheduleHint', { zone: view.timeZone, max: LIMITS.TIMER_SHUTDOWN_PERIODS })}
        </Typography.Paragraph>
        <Form.List name="schedule">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, i) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item name={[field.name, 'start']} label={t('wifi.offFrom', { n: i + 1 })}>
                    <Input placeholder="HH:MM" style={{ width: 96 }} data-testid={`wifi-off-start-${i}`} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'end']} label={t('wifi.offUntil', { n: i + 1 })}>
                    <Input placeholder="HH:MM" style={{ width: 96 }} data-testid={`wifi-off-end-${i}`} />
                  </Form.Item>
                  <div style={{ marginTop: 30 }}>
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('wifi.removePeriod', { n: i + 1 })}
                      onClick={() => {
                        remove(field.name);
                        recheck();
                      }}
                    />
                  </div>
                </Space>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= LIMITS.TIMER_SHUTDOWN_PERIODS}
                onClick={() => {
                  add({ start: '', end: '' });
                  recheck();
                }}
                data-testid="wifi-add-period"
                style={{ marginBottom: 16 }}
              >
                {t('wifi.addPeriod')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
      {failure && (
        <Alert
          type="error"
          showIcon
          message={`${failure.message} (${failure.code})`}
          data-testid="wifi-check"
        />
      )}
    </Modal>
  );
}
