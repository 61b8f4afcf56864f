import {
  AGGREGATION_GROUPS_MAX,
  type Check,
  type ModelInfo,
  POE_PORT_MAX_WATTS,
  PORT_NAME_MAX,
  PORT_SPEEDS,
  SWITCH_RATE_MAX_KBPS,
  type SwitchCheck,
  type SwitchConfig,
  type SwitchPort,
  validateSwitchConfig,
  validateSwitchPort,
} from '@beacon/protocol';
import { Alert, type ButtonProps, Form, Input, InputNumber, Modal, Radio, Select, Switch } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureField } from './fieldError.ts';
import { formatVlanList, parseVlanText } from './vlanText.ts';

interface Props {
  port: SwitchPort | null;
  section: SwitchConfig;
  info: ModelInfo;
  writable: boolean;
  onCancel(): void;
  onSave(port: SwitchPort): Promise<boolean>;
}

/**
 * Editing one switch port (SPEC.md §3 Switch port): every field, checked as the user types with the
 * validators the server and the switch use (validateSwitchPort, then the whole section for the
 * aggregation group, PoE budget and management VLAN rules).
 */
export function PortModal({ port, section, info, writable, onCancel, onSave }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<SwitchPort | null>(port);
  const [allowedText, setAllowedText] = useState('');
  const [strippedText, setStrippedText] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setDraft(port);
    setAllowedText(formatVlanList(port?.allowed ?? []));
    setStrippedText(formatVlanList(port?.stripped ?? []));
  }, [port]);

  const spec = info.ports.find((p) => p.id === port?.id);
  const allowed = parseVlanText(allowedText);
  const stripped = parseVlanText(strippedText);

  const { failure, field } = useMemo((): { failure: SwitchCheck; field: string | null } => {
    if (!draft) return { failure: null, field: null };
    const listFailure = (key: string, v: number[] | Exclude<Check, null>) =>
      Array.isArray(v) ? null : { ...v, path: key };
    const candidate: SwitchPort = {
      ...draft,
      allowed: Array.isArray(allowed) ? allowed : [],
      stripped: Array.isArray(stripped) ? stripped : [],
    };
    const own =
      listFailure('allowed', allowed) ??
      listFailure('stripped', stripped) ??
      validateSwitchPort(candidate, spec);
    if (own) return { failure: own, field: own.path ?? null };
    const index = section.ports.findIndex((p) => p.id === candidate.id);
    const whole = validateSwitchConfig(
      { ...section, ports: section.ports.map((p) => (p.id === candidate.id ? candidate : p)) },
      info,
    );
    return { failure: whole, field: failureField(whole, `ports.${index}.`) };
  }, [draft, allowed, stripped, section, info, spec]);

  if (!draft || !spec) return null;
  const set = (patch: Partial<SwitchPort>) => setDraft({ ...draft, ...patch });
  const trunk = draft.mode === 'trunk';

  const item = (name: string, label: string, control: ReactNode, extra?: string) => (
    <Form.Item
      label={label}
      htmlFor={`port-${name}`}
      validateStatus={field === name ? 'error' : undefined}
      help={field === name ? failure?.message : undefined}
      extra={extra}
    >
      {control}
    </Form.Item>
  );

  const submit = async () => {
    if (failure || !Array.isArray(allowed) || !Array.isArray(stripped)) return;
    setSaving(true);
    try {
      await onSave({ ...draft, allowed, stripped });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('switchPorts.editTitle', { id: draft.id })}
      onCancel={onCancel}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !writable || failure !== null, 'data-testid': 'port-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="port-form">
        {failure && field === null ? (
          <Alert
            type="error"
            showIcon
            message={failure.message}
            style={{ marginBottom: 12 }}
            data-testid="port-error"
          />
        ) : null}
        {item(
          'enabled',
          t('switchPorts.enabled'),
          <Switch id="port-enabled" checked={draft.enabled} onChange={(v) => set({ enabled: v })} />,
        )}
        {item(
          'name',
          t('switchPorts.name'),
          <Input
            id="port-name"
            value={draft.name}
            maxLength={PORT_NAME_MAX + 8}
            onChange={(e) => set({ name: e.target.value })}
            data-testid="port-name"
          />,
        )}
        {item(
          'speed',
          t('switchPorts.speed'),
          <Select
            id="port-speed"
            value={draft.speed}
            onChange={(v) => set({ speed: v })}
            options={PORT_SPEEDS.filter((s) => s <= spec.maxSpeed).map((s) => ({
              value: s,
              label: s === 0 ? t('switchPorts.auto') : t('switchPorts.mbps', { n: s }),
            }))}
          />,
        )}
        {item(
          'duplex',
          t('switchPorts.duplex'),
          <Select
            id="port-duplex"
            value={draft.duplex}
            onChange={(v) => set({ duplex: v })}
            options={(['auto', 'half', 'full'] as const).map((d) => ({
              value: d,
              label: t(`switchPorts.duplexMode.${d}`),
            }))}
          />,
        )}
        {item(
          'mode',
          t('switchPorts.mode'),
          <Radio.Group
            id="port-mode"
            value={draft.mode}
            onChange={(e) => {
              const mode = e.target.value as SwitchPort['mode'];
              if (mode === 'access') {
                setAllowedText('');
                setStrippedText('');
              }
              set({ mode });
            }}
            options={[
              { value: 'access', label: t('switchPorts.access') },
              { value: 'trunk', label: t('switchPorts.trunk') },
            ]}
            data-testid="port-mode"
          />,
        )}
        {item(
          'pvid',
          t('switchPorts.pvid'),
          <InputNumber
            id="port-pvid"
            value={draft.pvid}
            onChange={(v) => set({ pvid: typeof v === 'number' ? v : Number.NaN })}
            data-testid="port-pvid"
            style={{ width: '100%' }}
          />,
        )}
        {trunk
          ? item(
              'allowed',
              t('switchPorts.allowed'),
              <Input
                id="port-allowed"
                value={allowedText}
                onChange={(e) => setAllowedText(e.target.value)}
                placeholder="10,20-23"
                data-testid="port-allowed"
              />,
              t('switchPorts.listHint'),
            )
          : null}
        {trunk
          ? item(
              'stripped',
              t('switchPorts.stripped'),
              <Input
                id="port-stripped"
                value={strippedText}
                onChange={(e) => setStrippedText(e.target.value)}
                data-testid="port-stripped"
              />,
              t('switchPorts.strippedHint'),
            )
          : null}
        {item(
          'aggregation',
          t('switchPorts.aggregation'),
          <Select
            id="port-aggregation"
            value={draft.aggregation ?? 0}
            onChange={(v) => set({ aggregation: v === 0 ? null : v })}
            options={[
              { value: 0, label: t('switchPorts.noAggregation') },
              ...Array.from({ length: AGGREGATION_GROUPS_MAX }, (_, i) => ({
                value: i + 1,
                label: t('switchPorts.group', { n: i + 1 }),
              })),
            ]}
          />,
        )}
        {item(
          'rateIn',
          t('switchPorts.rateIn'),
          <InputNumber
            id="port-rateIn"
            min={0}
            max={SWITCH_RATE_MAX_KBPS}
            value={draft.rateIn}
            onChange={(v) => set({ rateIn: v ?? 0 })}
            style={{ width: '100%' }}
          />,
          t('switchPorts.rateHint'),
        )}
        {item(
          'rateOut',
          t('switchPorts.rateOut'),
          <InputNumber
            id="port-rateOut"
            min={0}
            max={SWITCH_RATE_MAX_KBPS}
            value={draft.rateOut}
            onChange={(v) => set({ rateOut: v ?? 0 })}
            style={{ width: '100%' }}
          />,
        )}
        {item(
          'eee',
          t('switchPorts.eee'),
          <Switch id="port-eee" checked={draft.eee} onChange={(v) => set({ eee: v })} />,
        )}
        {item(
          'trusted',
          t('switchPorts.trusted'),
          <Switch id="port-trusted" checked={draft.trusted} onChange={(v) => set({ trusted: v })} />,
        )}
        {spec.poe && draft.poe ? (
          <>
            {item(
              'poe',
              t('switchPorts.poe'),
              <Switch
                id="port-poe"
                checked={draft.poe.enabled}
                onChange={(v) => set({ poe: { enabled: v, power: draft.poe?.power ?? 0 } })}
                data-testid="port-poe"
              />,
            )}
            {item(
              'poe.power',
              t('switchPorts.poePower'),
              <InputNumber
                id="port-poe.power"
                min={0}
                max={POE_PORT_MAX_WATTS}
                value={draft.poe.power}
                disabled={!draft.poe.enabled}
                onChange={(v) => set({ poe: { enabled: draft.poe?.enabled ?? true, power: v ?? 0 } })}
                style={{ width: '100%' }}
              />,
              t('switchPorts.poePowerHint', { max: POE_PORT_MAX_WATTS }),
            )}
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
