import { type NetworkDocument, Protocol, validateIpv4, validatePortSpec } from '@beacon/protocol';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { ListSection } from './ListSection.tsx';
import { NetworkPage, type SectionProps } from './NetworkPage.tsx';

type Mapping = NetworkDocument['portMappings'][number];
type Values = Mapping;

function PortMappingSection(props: SectionProps) {
  const { t } = useTranslation();
  const { view } = props;
  return (
    <ListSection<Mapping, Values>
      {...props}
      kind="mapping"
      items={view.document.portMappings}
      listPath="portMappings"
      rowKey={(m) => m.name}
      searchText={(m) => `${m.name} ${m.internalIp} ${m.externalPorts}`}
      withItems={(portMappings) => ({ ...view.document, portMappings })}
      columns={[
        {
          title: t('network.mapping.name'),
          dataIndex: 'name',
          sorter: (a, b) => a.name.localeCompare(b.name),
        },
        {
          title: t('network.mapping.protocol'),
          dataIndex: 'protocol',
          filters: Object.values(Protocol).map((p) => ({ text: t(`network.mapping.${p}`), value: p })),
          onFilter: (v, m) => m.protocol === v,
          render: (_, m) => t(`network.mapping.${m.protocol}`),
        },
        { title: t('network.mapping.internalIp'), dataIndex: 'internalIp' },
        { title: t('network.mapping.internalPorts'), dataIndex: 'internalPorts' },
        { title: t('network.mapping.externalPorts'), dataIndex: 'externalPorts' },
      ]}
      toValues={(m) =>
        m ?? { name: '', protocol: Protocol.ALL, internalIp: '', internalPorts: '', externalPorts: '' }
      }
      fromValues={(x) => ({
        name: x.name ?? '',
        protocol: x.protocol ?? Protocol.ALL,
        internalIp: (x.internalIp ?? '').trim(),
        internalPorts: (x.internalPorts ?? '').trim(),
        externalPorts: (x.externalPorts ?? '').trim(),
      })}
      fields={() => (
        <>
          <Form.Item
            name="name"
            label={t('network.mapping.name')}
            rules={[{ required: true, message: t('network.required') }]}
          >
            <Input data-testid="mapping-name" />
          </Form.Item>
          <Form.Item name="protocol" label={t('network.mapping.protocol')}>
            <Select
              aria-label={t('network.mapping.protocol')}
              options={Object.values(Protocol).map((p) => ({ value: p, label: t(`network.mapping.${p}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="internalIp"
            label={t('network.mapping.internalIp')}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validateIpv4(v, 'Internal IP')),
            ]}
          >
            <Input data-testid="mapping-ip" />
          </Form.Item>
          <Form.Item
            name="internalPorts"
            label={t('network.mapping.internalPorts')}
            extra={t('network.mapping.portsHelp')}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validatePortSpec(v, 'Internal port')),
            ]}
          >
            <Input data-testid="mapping-internal" />
          </Form.Item>
          <Form.Item
            name="externalPorts"
            label={t('network.mapping.externalPorts')}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validatePortSpec(v, 'External port')),
            ]}
          >
            <Input data-testid="mapping-external" />
          </Form.Item>
        </>
      )}
    />
  );
}

/** /manage/networkconf/port: port mappings of the gateway. */
export function PortMappingPage() {
  const { t } = useTranslation();
  return (
    <NetworkPage title={t('route.portMap')} testId="network-port-page">
      {(props) => <PortMappingSection {...props} />}
    </NetworkPage>
  );
}
