import { type ModelInfo, type SwitchConfig, type SwitchIp, validateSwitchConfig } from '@beacon/protocol';
import { Button, Col, Form, Input, InputNumber, Radio, Row, Switch } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureField } from './fieldError.ts';

interface Settings {
  qvlan: boolean;
  managementVlan: number;
  ip: SwitchIp;
}

interface Props {
  section: SwitchConfig;
  info: ModelInfo;
  writable: boolean;
  onSave(settings: Settings): Promise<boolean>;
}

/** QVLAN mode, management VLAN and the switch's own IP (DHCP or static), checked as the user types. */
export function SwitchSettings({ section, info, writable, onSave }: Props) {
  const { t } = useTranslation();
  // The saved values; a refetch of the same values (every few seconds) keeps what the user is typing.
  const savedKey = JSON.stringify({
    qvlan: section.qvlan,
    managementVlan: section.managementVlan,
    ip: section.ip,
  });
  const initial = useMemo(() => JSON.parse(savedKey) as Settings, [savedKey]);
  const [draft, setDraft] = useState<Settings>(initial);
  const [dns, setDnsText] = useState<[string, string]>([initial.ip.dns[0] ?? '', initial.ip.dns[1] ?? '']);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setDraft(initial);
    setDnsText([initial.ip.dns[0] ?? '', initial.ip.dns[1] ?? '']);
  }, [initial]);

  const failure = useMemo(() => validateSwitchConfig({ ...section, ...draft }, info), [section, draft, info]);
  const field = failureField(failure, '');
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const setIp = (patch: Partial<SwitchIp>) => setDraft({ ...draft, ip: { ...draft.ip, ...patch } });
  const setDns = (i: 0 | 1, value: string) => {
    const next: [string, string] = [...dns];
    next[i] = value;
    setDnsText(next);
    setIp({ dns: next.filter((s) => s !== '') });
  };

  const item = (name: string, label: string, control: ReactNode) => (
    <Col xs={24} sm={12}>
      <Form.Item
        label={label}
        htmlFor={`switch-${name}`}
        validateStatus={field === name ? 'error' : undefined}
        help={field === name ? failure?.message : undefined}
      >
        {control}
      </Form.Item>
    </Col>
  );
  const isStatic = draft.ip.mode === 'static';

  return (
    <Form layout="vertical" data-testid="switch-settings">
      {failure &&
      field !== null &&
      !['qvlan', 'managementVlan'].includes(field) &&
      !field.startsWith('ip.') ? (
        <div role="alert">{failure.message}</div>
      ) : null}
      <Row gutter={12}>
        {item(
          'qvlan',
          t('switchPorts.qvlan'),
          <Switch
            id="switch-qvlan"
            checked={draft.qvlan}
            onChange={(v) => setDraft({ ...draft, qvlan: v })}
          />,
        )}
        {item(
          'managementVlan',
          t('switchPorts.managementVlan'),
          <InputNumber
            id="switch-managementVlan"
            value={draft.managementVlan}
            onChange={(v) => setDraft({ ...draft, managementVlan: typeof v === 'number' ? v : Number.NaN })}
            style={{ width: '100%' }}
            data-testid="switch-management-vlan"
          />,
        )}
        {item(
          'ip.mode',
          t('switchPorts.ipMode'),
          <Radio.Group
            id="switch-ip.mode"
            value={draft.ip.mode}
            onChange={(e) => setIp({ mode: e.target.value })}
            options={[
              { value: 'dhcp', label: t('switchPorts.dhcp') },
              { value: 'static', label: t('switchPorts.static') },
            ]}
          />,
        )}
        {isStatic
          ? item(
              'ip.ip',
              t('switchPorts.ip'),
              <Input
                id="switch-ip.ip"
                value={draft.ip.ip}
                onChange={(e) => setIp({ ip: e.target.value.trim() })}
              />,
            )
          : null}
        {isStatic
          ? item(
              'ip.mask',
              t('switchPorts.mask'),
              <Input
                id="switch-ip.mask"
                value={draft.ip.mask}
                placeholder="255.255.255.0"
                onChange={(e) => setIp({ mask: e.target.value.trim() })}
              />,
            )
          : null}
        {isStatic
          ? item(
              'ip.gateway',
              t('switchPorts.gateway'),
              <Input
                id="switch-ip.gateway"
                value={draft.ip.gateway}
                onChange={(e) => setIp({ gateway: e.target.value.trim() })}
              />,
            )
          : null}
        {isStatic
          ? item(
              'ip.dns',
              t('switchPorts.dns1'),
              <Input id="switch-ip.dns" value={dns[0]} onChange={(e) => setDns(0, e.target.value.trim())} />,
            )
          : null}
        {isStatic ? (
          <Col xs={24} sm={12}>
            <Form.Item label={t('switchPorts.dns2')} htmlFor="switch-dns2">
              <Input id="switch-dns2" value={dns[1]} onChange={(e) => setDns(1, e.target.value.trim())} />
            </Form.Item>
          </Col>
        ) : null}
      </Row>
      <Button
        type="primary"
        disabled={!writable || !dirty || failure !== null}
        loading={saving}
        data-testid="switch-settings-save"
        onClick={async () => {
          setSaving(true);
          try {
            await onSave(draft);
          } finally {
            setSaving(false);
          }
        }}
      >
        {t('switchPorts.saveSettings')}
      </Button>
    </Form>
  );
}
