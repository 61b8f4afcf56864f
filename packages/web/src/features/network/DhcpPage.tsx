import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DHCP_POOL_LEASE_PRESETS,
  type NetworkDhcpPool,
  validateDns,
  validateIpv4,
  validateLease,
  validatePoolName,
} from '@beacon/protocol';
import { Button, Form, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { blankToUndefined, dnsOf, maskOf, maskText } from './fields.ts';
import { ListSection } from './ListSection.tsx';
import { NetworkPage, type SectionProps } from './NetworkPage.tsx';

interface Values {
  name: string;
  vlan: number | null;
  startIp: string;
  endIp: string;
  mask: string;
  gateway: string;
  dns1: string;
  dns2: string;
  lease: number | 'custom';
  customLease: string;
  staticLeases: { mac: string; ip: string; name: string }[];
}

const isPreset = (m: number) => (DHCP_POOL_LEASE_PRESETS as readonly number[]).includes(m);

function DhcpSection(props: SectionProps) {
  const { t } = useTranslation();
  const { view } = props;
  const leaseLabel = (m: number) =>
    m % 1440 === 0
      ? t('network.dhcp.days', { count: m / 1440 })
      : m % 60 === 0
        ? t('network.dhcp.hours', { count: m / 60 })
        : t('network.dhcp.minutes', { count: m });
  return (
    <ListSection<NetworkDhcpPool, Values>
      {...props}
      kind="dhcp"
      items={view.document.dhcpPools}
      listPath="dhcpPools"
      rowKey={(p) => p.name}
      searchText={(p) => `${p.name} ${p.startIp} ${p.endIp}`}
      withItems={(dhcpPools) => ({ ...view.document, dhcpPools })}
      columns={[
        { title: t('network.dhcp.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
        {
          title: t('network.dhcp.interface'),
          dataIndex: 'vlan',
          render: (_, p) => (p.vlan === undefined ? 'LAN' : `VLAN ${p.vlan}`),
        },
        {
          title: t('network.dhcp.range'),
          dataIndex: 'startIp',
          render: (_, p) => `${p.startIp} – ${p.endIp}`,
        },
        {
          title: t('network.dhcp.lease'),
          dataIndex: 'leaseMinutes',
          render: (_, p) => leaseLabel(p.leaseMinutes),
        },
        {
          title: t('network.dhcp.staticLeases'),
          dataIndex: 'staticLeases',
          render: (_, p) => p.staticLeases.length,
        },
      ]}
      toValues={(p) => ({
        name: p?.name ?? '',
        vlan: p?.vlan ?? null,
        startIp: p?.startIp ?? '',
        endIp: p?.endIp ?? '',
        mask: maskText(p?.mask ?? 24),
        gateway: p?.gateway ?? '',
        dns1: p?.dns[0] ?? '',
        dns2: p?.dns[1] ?? '',
        lease: p ? (isPreset(p.leaseMinutes) ? p.leaseMinutes : 'custom') : 1440,
        customLease: p && !isPreset(p.leaseMinutes) ? String(p.leaseMinutes) : '',
        staticLeases: p?.staticLeases.map((l) => ({ mac: l.mac, ip: l.ip, name: l.name })) ?? [],
      })}
      fromValues={(x) => ({
        name: x.name ?? '',
        vlan: x.vlan ?? undefined,
        startIp: (x.startIp ?? '').trim(),
        endIp: (x.endIp ?? '').trim(),
        mask: maskOf(x.mask) ?? 24,
        gateway: blankToUndefined(x.gateway),
        dns: dnsOf(x.dns1, x.dns2),
        leaseMinutes: x.lease === 'custom' ? Number(x.customLease) : x.lease,
        staticLeases: (x.staticLeases ?? [])
          .filter((l) => l && (l.mac || l.ip))
          .map((l) => ({ mac: (l.mac ?? '').trim(), ip: (l.ip ?? '').trim(), name: l.name ?? '' })),
      })}
      fields={(form) => (
        <>
          <Form.Item
            name="name"
            label={t('network.dhcp.name')}
            rules={[{ required: true, message: t('network.required') }, checkRule(validatePoolName)]}
          >
            <Input data-testid="dhcp-name" />
          </Form.Item>
          <Form.Item name="vlan" label={t('network.dhcp.interface')}>
            <Select
              aria-label={t('network.dhcp.interface')}
              data-testid="dhcp-vlan"
              options={[
                { value: null, label: 'LAN' },
                ...view.document.vlans.map((v) => ({ value: v.id, label: `VLAN ${v.id} (${v.name})` })),
              ]}
            />
          </Form.Item>
          <Space wrap>
            <Form.Item
              name="startIp"
              label={t('network.dhcp.startIp')}
              rules={[
                { required: true, message: t('network.required') },
                checkRule((v) => validateIpv4(v, 'Start IP')),
              ]}
            >
              <Input data-testid="dhcp-start" />
            </Form.Item>
            <Form.Item
              name="endIp"
              label={t('network.dhcp.endIp')}
              rules={[
                { required: true, message: t('network.required') },
                checkRule((v) => validateIpv4(v, 'End IP')),
              ]}
            >
              <Input data-testid="dhcp-end" />
            </Form.Item>
          </Space>
          <Space wrap>
            <Form.Item
              name="mask"
              label={t('network.mask')}
              rules={[{ required: true, message: t('network.required') }]}
            >
              <Input data-testid="dhcp-mask" />
            </Form.Item>
            <Form.Item
              name="gateway"
              label={t('network.gateway')}
              rules={[checkRule((v) => validateIpv4(v, 'Gateway'), true)]}
            >
              <Input data-testid="dhcp-gateway" />
            </Form.Item>
          </Space>
          <Space wrap>
            <Form.Item
              name="dns1"
              label={t('network.dns1')}
              rules={[checkRule((v) => validateDns([v]), true)]}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="dns2"
              label={t('network.dns2')}
              rules={[checkRule((v) => validateDns([form.getFieldValue('dns1') ?? '', v]), true)]}
            >
              <Input />
            </Form.Item>
          </Space>
          <Form.Item name="lease" label={t('network.dhcp.lease')}>
            <Select
              aria-label={t('network.dhcp.lease')}
              options={[
                ...DHCP_POOL_LEASE_PRESETS.map((m) => ({ value: m, label: leaseLabel(m) })),
                { value: 'custom', label: t('network.dhcp.custom') },
              ]}
            />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a, b) => a.lease !== b.lease}>
            {() =>
              form.getFieldValue('lease') === 'custom' && (
                <Form.Item
                  name="customLease"
                  label={t('network.dhcp.customLease')}
                  rules={[checkRule((v) => validateLease(v, 'custom'))]}
                >
                  <Input inputMode="numeric" />
                </Form.Item>
              )
            }
          </Form.Item>
          <Form.List name="staticLeases">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" wrap>
                    <Form.Item name={[f.name, 'mac']} label={t('network.dhcp.mac')}>
                      <Input />
                    </Form.Item>
                    <Form.Item name={[f.name, 'ip']} label={t('network.dhcp.leaseIp')}>
                      <Input />
                    </Form.Item>
                    <Form.Item name={[f.name, 'name']} label={t('network.dhcp.leaseName')}>
                      <Input />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      aria-label={t('network.delete')}
                      onClick={() => remove(f.name)}
                    />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ mac: '', ip: '', name: '' })}
                >
                  {t('network.dhcp.addLease')}
                </Button>
              </>
            )}
          </Form.List>
        </>
      )}
    />
  );
}

/** /manage/networkconf/dhcp: DHCP pools with static leases, served by the gateway. */
export function DhcpPage() {
  const { t } = useTranslation();
  return (
    <NetworkPage title={t('route.dhcp')} testId="network-dhcp-page">
      {(props) => <DhcpSection {...props} />}
    </NetworkPage>
  );
}
