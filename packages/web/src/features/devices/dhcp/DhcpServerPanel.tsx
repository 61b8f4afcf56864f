import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { type DhcpServerConfig, type DhcpServerView, validateDhcpServerConfig } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Tag } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../../state/feedback.ts';
import { withLoadState } from '../../../state/store.ts';
import { dhcpServerApi, dhcpServerKey } from './api.ts';

/** SPEC.md §5 lease presets in minutes (30 min, 1 h, 3 h, 6 h, 12 h, 1 d, 3 d, 7 d), or custom. */
const PRESETS = [30, 60, 180, 360, 720, 1440, 4320, 10080];

const EMPTY: DhcpServerConfig = {
  enabled: false,
  vlan: null,
  name: '',
  startIp: '',
  endIp: '',
  mask: 24,
  dns: [],
  leaseMinutes: 1440,
  staticLeases: [],
};

/** The VLANs as the validator sees them: which already have DHCP relay, snooping or the gateway's server. */
function vlansOf(view: DhcpServerView) {
  return view.vlans.map((v) => ({
    id: v.id,
    dhcp: v.dhcp === 'server',
    dhcpRelay: v.dhcp === 'relay' ? 'relay' : undefined,
    dhcpSnooping: v.dhcp === 'snooping',
  }));
}

/**
 * The DHCP server of a switch or an AP in the device drawer (decision 0043): one pool in one VLAN,
 * checked as the user types with the validator the server and the device use, saved as a revision
 * and followed until the device has applied it.
 */
export function DhcpServerPanel({
  projectId,
  sn,
  writable,
}: {
  projectId: number;
  sn: string;
  writable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: dhcpServerKey(projectId, sn),
    queryFn: () => dhcpServerApi.get(projectId, sn),
    refetchInterval: (q) => (q.state.data?.configStatus === 'pending' ? 1000 : 15_000),
  });
  const view = query.data;
  const savedKey = JSON.stringify(view?.dhcpServer ?? EMPTY);
  const initial = useMemo(() => JSON.parse(savedKey) as DhcpServerConfig, [savedKey]);
  const [draft, setDraft] = useState<DhcpServerConfig>(initial);
  const [dns, setDnsText] = useState<[string, string]>(['', '']);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setDraft(initial);
    setDnsText([initial.dns[0] ?? '', initial.dns[1] ?? '']);
  }, [initial]);
  const failure = useMemo(
    () =>
      view
        ? validateDhcpServerConfig(draft, { vlans: vlansOf(view), managementVlan: view.managementVlan })
        : null,
    [draft, view],
  );
  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  if (!view) return null;

  const blocked =
    view.blocked !== null
      ? t(`dhcpServer.blocked.${view.blocked}`, { defaultValue: String(view.blocked) })
      : null;
  const canWrite = writable && blocked === null;
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const custom = !PRESETS.includes(draft.leaseMinutes);
  const set = (patch: Partial<DhcpServerConfig>) => setDraft({ ...draft, ...patch });
  const setDns = (i: 0 | 1, value: string) => {
    const next: [string, string] = [...dns];
    next[i] = value;
    setDnsText(next);
    set({ dns: next.filter((s) => s.trim() !== '') });
  };
  const item = (name: string, label: string, control: ReactNode) => (
    <Col xs={24} sm={12}>
      <Form.Item
        label={label}
        htmlFor={`dhcp-${name}`}
        validateStatus={failure?.path === name ? 'error' : undefined}
        help={failure?.path === name ? failure.message : undefined}
      >
        {control}
      </Form.Item>
    </Col>
  );
  const save = async () => {
    setSaving(true);
    try {
      const next = await withLoadState('saving', () =>
        dhcpServerApi.save(projectId, sn, { expectedRevision: view.revision, dhcpServer: draft }),
      );
      queryClient.setQueryData(dhcpServerKey(projectId, sn), next);
      showSuccess(t('dhcpServer.saved', { revision: next.revision }));
    } catch (e) {
      showError(errorText(e));
      void query.refetch();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form layout="vertical" data-testid="dhcp-server" disabled={!canWrite}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Tag
          data-testid="dhcp-config-status"
          color={view.configStatus === 'applied' ? 'green' : view.configStatus === 'failed' ? 'red' : 'blue'}
        >
          {t(`dhcpServer.status.${view.configStatus}`)}
        </Tag>
        {view.dhcpClientCount !== null ? (
          <span data-testid="dhcp-clients">{t('dhcpServer.clients', { count: view.dhcpClientCount })}</span>
        ) : null}
        {blocked ? <Tag>{blocked}</Tag> : null}
      </Space>
      {failure && ['enabled', 'vlan'].includes(failure.path) ? (
        <div role="alert">{failure.message}</div>
      ) : null}
      <Row gutter={12}>
        {item(
          'enabled',
          t('dhcpServer.enabled'),
          <Switch id="dhcp-enabled" checked={draft.enabled} onChange={(v) => set({ enabled: v })} />,
        )}
        {item(
          'vlan',
          t('dhcpServer.vlan'),
          <Select
            id="dhcp-vlan"
            value={draft.vlan ?? 0}
            onChange={(v: number) => set({ vlan: v === 0 ? null : v })}
            options={[
              { value: 0, label: t('dhcpServer.managementVlan', { vlan: view.managementVlan ?? '-' }) },
              ...view.vlans.map((v) => ({
                value: v.id,
                label: `${v.id} ${v.name}${v.dhcp === 'none' ? '' : ` (${t(`dhcpServer.mode.${v.dhcp}`)})`}`,
                disabled: v.dhcp !== 'none',
              })),
            ]}
          />,
        )}
        {item(
          'name',
          t('dhcpServer.name'),
          <Input id="dhcp-name" value={draft.name} onChange={(e) => set({ name: e.target.value })} />,
        )}
        {item(
          'mask',
          t('dhcpServer.mask'),
          <Input
            id="dhcp-mask"
            value={String(draft.mask)}
            onChange={(e) =>
              set({ mask: /^\d+$/.test(e.target.value) ? Number(e.target.value) : e.target.value })
            }
          />,
        )}
        {item(
          'startIp',
          t('dhcpServer.startIp'),
          <Input
            id="dhcp-startIp"
            value={draft.startIp}
            onChange={(e) => set({ startIp: e.target.value })}
          />,
        )}
        {item(
          'endIp',
          t('dhcpServer.endIp'),
          <Input id="dhcp-endIp" value={draft.endIp} onChange={(e) => set({ endIp: e.target.value })} />,
        )}
        {item(
          'gateway',
          t('dhcpServer.gateway'),
          <Input
            id="dhcp-gateway"
            value={draft.gateway ?? ''}
            onChange={(e) => set({ gateway: e.target.value || undefined })}
          />,
        )}
        {item(
          'dns',
          t('dhcpServer.dns'),
          <Space.Compact block>
            <Input
              id="dhcp-dns"
              aria-label={t('dhcpServer.dns1')}
              value={dns[0]}
              onChange={(e) => setDns(0, e.target.value)}
            />
            <Input
              aria-label={t('dhcpServer.dns2')}
              value={dns[1]}
              onChange={(e) => setDns(1, e.target.value)}
            />
          </Space.Compact>,
        )}
        {item(
          'leaseMinutes',
          t('dhcpServer.lease'),
          <Space.Compact block>
            <Select
              id="dhcp-leaseMinutes"
              aria-label={t('dhcpServer.lease')}
              value={custom ? 0 : draft.leaseMinutes}
              onChange={(v: number) => set({ leaseMinutes: v === 0 ? 120 : v })}
              options={[
                ...PRESETS.map((m) => ({ value: m, label: t(`dhcpServer.preset.${m}`) })),
                { value: 0, label: t('dhcpServer.preset.custom') },
              ]}
            />
            {custom ? (
              <InputNumber
                aria-label={t('dhcpServer.customMinutes')}
                value={draft.leaseMinutes}
                onChange={(v) => set({ leaseMinutes: v ?? 0 })}
              />
            ) : null}
          </Space.Compact>,
        )}
      </Row>
      <StaticLeases
        leases={draft.staticLeases}
        failure={failure?.path.startsWith('staticLeases.') ? failure : null}
        onChange={(staticLeases) => set({ staticLeases })}
      />
      <Button
        type="primary"
        data-testid="dhcp-save"
        loading={saving}
        disabled={!canWrite || !dirty || failure !== null}
        onClick={save}
      >
        {t('dhcpServer.save')}
      </Button>
    </Form>
  );
}

type Lease = DhcpServerConfig['staticLeases'][number];

/**
 * The pool's static leases (a MAC always given the same IP): edited in the form, each checked as
 * the user types with the same rules as the server and the device (inside the pool 108, each IP
 * 105 and MAC 106 once); the failure is shown on the lease's own field.
 */
function StaticLeases({
  leases,
  failure,
  onChange,
}: {
  leases: Lease[];
  failure: { path: string; message: string; code: number } | null;
  onChange(next: Lease[]): void;
}) {
  const { t } = useTranslation();
  const edit = (i: number, patch: Partial<Lease>) =>
    onChange(leases.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const field = (i: number, key: 'mac' | 'ip' | 'name', label: string) => {
    const bad = failure?.path === `staticLeases.${i}.${key}`;
    return (
      <Form.Item
        label={label}
        htmlFor={`dhcp-lease-${i}-${key}`}
        validateStatus={bad ? 'error' : undefined}
        help={bad ? `${failure!.message} (${failure!.code})` : undefined}
      >
        <Input
          id={`dhcp-lease-${i}-${key}`}
          data-testid={`dhcp-lease-${i}-${key}`}
          value={leases[i]![key]}
          onChange={(e) => edit(i, { [key]: e.target.value })}
        />
      </Form.Item>
    );
  };
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }} data-testid="dhcp-leases">
      <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('dhcpServer.staticLeases')}</legend>
      {leases.length === 0 ? <p>{t('dhcpServer.noLeases')}</p> : null}
      {leases.map((_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a lease has no identity of its own while typed
        <Row gutter={8} key={i} align="bottom">
          <Col xs={24} sm={8}>
            {field(i, 'mac', t('dhcpServer.leaseMac'))}
          </Col>
          <Col xs={24} sm={7}>
            {field(i, 'ip', t('dhcpServer.leaseIp'))}
          </Col>
          <Col xs={20} sm={7}>
            {field(i, 'name', t('dhcpServer.leaseName'))}
          </Col>
          <Col xs={4} sm={2}>
            <Form.Item>
              <Button
                type="text"
                icon={<MinusCircleOutlined />}
                aria-label={t('dhcpServer.removeLease')}
                data-testid={`dhcp-lease-${i}-remove`}
                onClick={() => onChange(leases.filter((__, j) => j !== i))}
              />
            </Form.Item>
          </Col>
        </Row>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        data-testid="dhcp-lease-add"
        disabled={leases.length >= 256}
        onClick={() => onChange([...leases, { mac: '', ip: '', name: '' }])}
      >
        {t('dhcpServer.addLease')}
      </Button>
    </fieldset>
  );
}
