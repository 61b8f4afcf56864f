import { type NetworkVlan, validateIpv4, validateVlanId, validateVlanName } from '@beacon/protocol';
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
  tagged: number[];
  untagged: number[];
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
          render: (_, v) => (v.dhcp ? t('network.on') : t('network.off')),
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
        tagged: v?.tagged ?? [],
        untagged: v?.untagged ?? [],
      })}
      fromValues={(x) => ({
        id: Number(x.id),
        name: x.name ?? '',
        ip: blankToUndefined(x.ip),
        mask: blankToUndefined(x.ip) ? (maskOf(x.mask) ?? 24) : undefined,
        dhcp: !!x.dhcp,
        tagged: x.tagged ?? [],
        untagged: x.untagged ?? [],
      })}
      fields={() => (
        <>
          <Form.Item
            name="id"
            label={t('network.vlan.id')}
            extra={t('network.vlan.range', view.vlanRange)}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validateVlanId(v, view.vlanRange)),
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
          <Form.Item name="dhcp" valuePropName="checked">
            <Checkbox>{t('network.vlan.dhcp')}</Checkbox>
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
