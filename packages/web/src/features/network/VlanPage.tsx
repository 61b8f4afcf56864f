import {
  LIMITS,
  type NetworkVlan,
  parseVlanList,
  validateIpv4,
  validateVlanList,
  validateVlanName,
} from '@beacon/protocol';
import { Button, Card, Checkbox, Form, Input, Select, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { blankToUndefined, maskOf, maskText } from './fields.ts';
import { ListSection } from './ListSection.tsx';
import { NetworkPage, type SectionProps } from './NetworkPage.tsx';

interface Values {
  id: string;
  name: string;
  ip: string;
  mask: string;
  dhcp: boolean;
  dhcpRelay: string;
  dhcpSnooping: boolean;
  l3: boolean;
  tagged: number[];
  untagged: number[];
}

/** SPEC.md §5: the ids of one add, a list with commas and ranges (10-13), at most 100. */
function idsOf(text: string, range: { min: number; max: number }): number[] {
  const ids = parseVlanList(text ?? '', range, LIMITS.VLANS_PER_ADD);
  return Array.isArray(ids) ? ids : [Number(text)];
}

function VlanSection(props: SectionProps) {
  const { t } = useTranslation();
  const { view } = props;
  const items = view.document.vlans;
  const portOptions = view.gatewayPorts.map((p) => ({ value: p, label: t('network.port', { port: p }) }));
  return (
    <ListSection<NetworkVlan, Values>
      {...props}
      kind="vlan"
      items={items}
      listPath="vlans"
      rowKey={(v) => String(v.id)}
      searchText={(v) => `${v.id} ${v.name} ${v.ip ?? ''}`}
      withItems={(vlans) => ({ ...view.document, vlans })}
      columns={[
        { title: t('network.vlan.id'), dataIndex: 'id', sorter: (a, b) => a.id - b.id },
        { title: t('network.vlan.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
        {
          title: t('network.vlan.ip'),
          dataIndex: 'ip',
          render: (_, v) => (v.ip ? `${v.ip}/${maskText(v.mask ?? 24)}` : '—'),
        },
        {
          title: t('network.vlan.dhcp'),
          dataIndex: 'dhcp',
          render: (_, v) =>
            v.dhcp
              ? t('network.on')
              : v.dhcpRelay
                ? t('network.vlan.relayTo', { ip: v.dhcpRelay })
                : v.dhcpSnooping
                  ? t('network.vlan.snooping')
                  : t('network.off'),
        },
        {
          title: t('network.vlan.ports'),
          dataIndex: 'tagged',
          render: (_, v) => (
            <>
              {v.untagged.map((p) => (
                <Tag key={`u${p}`}>{t('network.vlan.untaggedPort', { port: p })}</Tag>
              ))}
              {v.tagged.map((p) => (
                <Tag key={`t${p}`} color="blue">
                  {t('network.vlan.taggedPort', { port: p })}
                </Tag>
              ))}
            </>
          ),
        },
      ]}
      toValues={(v) => ({
        id: v ? String(v.id) : '',
        name: v?.name ?? '',
        ip: v?.ip ?? '',
        mask: maskText(v?.mask ?? (v ? undefined : 24)),
        dhcp: v?.dhcp ?? false,
        dhcpRelay: v?.dhcpRelay ?? '',
        dhcpSnooping: v?.dhcpSnooping ?? false,
        l3: v ? (v.l3 ?? !!v.ip) : true,
        tagged: v?.tagged ?? [],
        untagged: v?.untagged ?? [],
      })}
      fromValues={(x) => {
        const ids = idsOf(x.id, view.vlanRange);
        // Several ids in one add: one VLAN each, named after the given name and the id.
        return ids.map((id) => ({
          id,
          name: ids.length > 1 ? `${x.name ?? ''}_${id}` : (x.name ?? ''),
          ip: blankToUndefined(x.ip),
          mask: blankToUndefined(x.ip) ? (maskOf(x.mask) ?? 24) : undefined,
          dhcp: !!x.dhcp,
          dhcpRelay: blankToUndefined(x.dhcpRelay),
          dhcpSnooping: !!x.dhcpSnooping,
          l3: !!x.l3,
          tagged: x.tagged ?? [],
          untagged: x.untagged ?? [],
        }));
      }}
      fields={() => (
        <>
          <Form.Item
            name="id"
            label={t('network.vlan.id')}
            extra={t('network.vlan.idList', { ...view.vlanRange, limit: LIMITS.VLANS_PER_ADD })}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validateVlanList(v, view.vlanRange, LIMITS.VLANS_PER_ADD)),
            ]}
          >
            <Input inputMode="numeric" data-testid="vlan-id" />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('network.vlan.name')}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validateVlanName(v)),
            ]}
          >
            <Input data-testid="vlan-name" />
          </Form.Item>
          <Form.Item
            name="ip"
            label={t('network.vlan.ip')}
            rules={[checkRule((v) => validateIpv4(v, 'VLAN IP'), true)]}
          >
            <Input data-testid="vlan-ip" />
          </Form.Item>
          <Form.Item name="mask" label={t('network.mask')}>
            <Input data-testid="vlan-mask" />
          </Form.Item>
          <Form.Item name="l3" valuePropName="checked">
            <Checkbox data-testid="vlan-l3">{t('network.vlan.l3')}</Checkbox>
          </Form.Item>
          <Form.Item name="dhcp" valuePropName="checked" extra={t('network.vlan.dhcpOne')}>
            <Checkbox data-testid="vlan-dhcp">{t('network.vlan.dhcp')}</Checkbox>
          </Form.Item>
          <Form.Item name="dhcpSnooping" valuePropName="checked">
            <Checkbox data-testid="vlan-snooping">{t('network.vlan.snooping')}</Checkbox>
          </Form.Item>
          <Form.Item
            name="dhcpRelay"
            label={t('network.vlan.relay')}
            rules={[checkRule((v) => validateIpv4(v, 'DHCP relay server'), true)]}
          >
            <Input data-testid="vlan-relay" />
          </Form.Item>
          <Form.Item name="untagged" label={t('network.vlan.untagged')}>
            <Select mode="multiple" options={portOptions} aria-label={t('network.vlan.untagged')} />
          </Form.Item>
          <Form.Item name="tagged" label={t('network.vlan.tagged')}>
            <Select mode="multiple" options={portOptions} aria-label={t('network.vlan.tagged')} />
          </Form.Item>
        </>
      )}
    />
  );
}

/** The VLAN switches and APs are managed in (none: untagged). */
function ManagementVlanCard({ view, writable, apply }: SectionProps) {
  const { t } = useTranslation();
  const stored = view.document.managementVlan ?? null;
  const [value, setValue] = useState<number | null>(stored);
  const [saving, setSaving] = useState(false);
  useEffect(() => setValue(stored), [stored]);
  const save = async () => {
    setSaving(true);
    await apply({ ...view.document, managementVlan: value ?? undefined });
    setSaving(false);
  };
  return (
    <Card size="small" title={t('network.vlan.management')} style={{ marginBottom: 16 }}>
      <Space wrap>
        <Select
          style={{ minWidth: 220 }}
          aria-label={t('network.vlan.management')}
          value={value}
          onChange={setValue}
          disabled={!writable}
          data-testid="management-vlan"
          options={[
            { value: null, label: t('network.vlan.untaggedManagement') },
            ...view.document.vlans.map((v) => ({ value: v.id, label: `VLAN ${v.id} (${v.name})` })),
          ]}
        />
        <Button
          onClick={save}
          loading={saving}
          disabled={!writable || value === stored}
          data-testid="management-vlan-save"
        >
          {t('network.save')}
        </Button>
      </Space>
    </Card>
  );
}

/** /manage/networkconf/vlan: the project's VLANs (gateway interfaces, switch VLANs). */
export function VlanPage() {
  const { t } = useTranslation();
  return (
    <NetworkPage title={t('route.vlan')} testId="network-vlan-page">
      {(props) => (
        <>
          <ManagementVlanCard {...props} />
          <VlanSection {...props} />
        </>
      )}
    </NetworkPage>
  );
}
