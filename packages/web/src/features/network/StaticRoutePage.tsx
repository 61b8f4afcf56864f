import { type NetworkDocument, validateIpv4 } from '@beacon/protocol';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { maskOf, maskText } from './fields.ts';
import { ListSection } from './ListSection.tsx';
import { NetworkPage, type SectionProps } from './NetworkPage.tsx';

type Route = NetworkDocument['staticRoutes'][number];
interface Values {
  name: string;
  destination: string;
  mask: string;
  nextHop: string;
  outPort: number | null;
}

function StaticRouteSection(props: SectionProps) {
  const { t } = useTranslation();
  const { view } = props;
  return (
    <ListSection<Route, Values>
      {...props}
      kind="route"
      items={view.document.staticRoutes}
      listPath="staticRoutes"
      rowKey={(r) => r.name}
      searchText={(r) => `${r.name} ${r.destination} ${r.nextHop}`}
      withItems={(staticRoutes) => ({ ...view.document, staticRoutes })}
      columns={[
        { title: t('network.route.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
        {
          title: t('network.route.destination'),
          dataIndex: 'destination',
          render: (_, r) => `${r.destination}/${maskText(r.mask)}`,
        },
        { title: t('network.route.nextHop'), dataIndex: 'nextHop' },
        {
          title: t('network.route.outPort'),
          dataIndex: 'outPort',
          render: (_, r) =>
            r.outPort === undefined ? t('network.route.auto') : t('network.port', { port: r.outPort }),
        },
      ]}
      toValues={(r) => ({
        name: r?.name ?? '',
        destination: r?.destination ?? '',
        mask: maskText(r?.mask ?? 24),
        nextHop: r?.nextHop ?? '',
        outPort: r?.outPort ?? null,
      })}
      fromValues={(x) => ({
        name: x.name ?? '',
        destination: (x.destination ?? '').trim(),
        mask: maskOf(x.mask) ?? 24,
        nextHop: (x.nextHop ?? '').trim(),
        outPort: x.outPort ?? undefined,
      })}
      fields={() => (
        <>
          <Form.Item
            name="name"
            label={t('network.route.name')}
            rules={[{ required: true, message: t('network.required') }]}
          >
            <Input data-testid="route-name" />
          </Form.Item>
          <Form.Item
            name="destination"
            label={t('network.route.destination')}
            rules={[{ required: true, message: t('network.required') }]}
          >
            <Input data-testid="route-destination" />
          </Form.Item>
          <Form.Item
            name="mask"
            label={t('network.mask')}
            rules={[{ required: true, message: t('network.required') }]}
          >
            <Input data-testid="route-mask" />
          </Form.Item>
          <Form.Item
            name="nextHop"
            label={t('network.route.nextHop')}
            rules={[
              { required: true, message: t('network.required') },
              checkRule((v) => validateIpv4(v, 'Next hop')),
            ]}
          >
            <Input data-testid="route-next-hop" />
          </Form.Item>
          <Form.Item name="outPort" label={t('network.route.outPort')}>
            <Select
              aria-label={t('network.route.outPort')}
              options={[
                { value: null, label: t('network.route.auto') },
                ...view.gatewayPorts.map((p) => ({ value: p, label: t('network.port', { port: p }) })),
              ]}
            />
          </Form.Item>
        </>
      )}
    />
  );
}

/** /manage/networkconf/static: static routes of the gateway. */
export function StaticRoutePage() {
  const { t } = useTranslation();
  return (
    <NetworkPage title={t('route.staticRoute')} testId="network-static-page">
      {(props) => <StaticRouteSection {...props} />}
    </NetworkPage>
  );
}
