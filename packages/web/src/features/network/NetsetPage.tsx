import {
  type NetworkCheck,
  type NetworkDocumentInput,
  validateDns,
  validateHostAddress,
  validateIpv4,
  WanConnectionType,
} from '@beacon/protocol';
import { Alert, Button, Card, Col, Form, Input, Row, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { blankToUndefined, dnsOf, maskOf, maskText } from './fields.ts';
import { NetworkPage, type SectionProps } from './NetworkPage.tsx';
import {
  GuestCard,
  TUNNEL_CLIENT_LISTS,
  TUNNEL_PATHS,
  TUNNEL_SERVERS,
  TunnelClientsCard,
  TunnelServerCard,
  type TunnelValues,
  tunnelDocument,
  tunnelValues,
} from './TunnelCards.tsx';
import { checkDocument } from './useNetwork.ts';

interface Values extends TunnelValues {
  type: WanConnectionType | 'none';
  ip: string;
  mask: string;
  gateway: string;
  dns1: string;
  dns2: string;
  username: string;
  password: string;
  lanIp: string;
  lanMask: string;
}

const STATIC: string[] = [WanConnectionType.STATIC_IP, WanConnectionType.MULTI_STATIC];
const PPPOE: string[] = [WanConnectionType.PPPOE, WanConnectionType.MULTI_PPPOE];

function NetsetSection({ view, writable, apply }: SectionProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<NetworkCheck>(null);
  const [saving, setSaving] = useState(false);
  const type = Form.useWatch('type', form);
  const { wan, lan } = view.document;
  const doc = view.document;

  useEffect(() => {
    form.setFieldsValue({
      type: wan?.type ?? 'none',
      ip: wan?.ip ?? '',
      mask: maskText(wan?.mask),
      gateway: wan?.gateway ?? '',
      dns1: wan?.dns[0] ?? '',
      dns2: wan?.dns[1] ?? '',
      username: wan?.username ?? '',
      password: wan?.password ?? '',
      lanIp: lan?.ip ?? '',
      lanMask: maskText(lan?.mask ?? 24),
      ...tunnelValues(doc),
    });
  }, [form, wan, lan, doc]);

  const candidate = (x: Values): NetworkDocumentInput => {
    const isStatic = STATIC.includes(x.type);
    const isPppoe = PPPOE.includes(x.type);
    return {
      ...view.document,
      wan:
        x.type === 'none'
          ? null
          : {
              type: x.type,
              ip: isStatic ? blankToUndefined(x.ip) : undefined,
              mask: isStatic ? maskOf(x.mask) : undefined,
              gateway: isStatic ? blankToUndefined(x.gateway) : undefined,
              dns: dnsOf(x.dns1, x.dns2),
              username: isPppoe ? blankToUndefined(x.username) : undefined,
              password: isPppoe ? blankToUndefined(x.password) : undefined,
            },
      lan: blankToUndefined(x.lanIp) ? { ip: x.lanIp.trim(), mask: maskOf(x.lanMask) ?? 24 } : null,
      ...tunnelDocument(x),
    };
  };

  const SHOWN = ['wan', 'lan', 'vlans', ...TUNNEL_PATHS];

  const onValuesChange = () => {
    const f = checkDocument(view, candidate(form.getFieldsValue(true)));
    setFailure(f && SHOWN.some((p) => f.path === p || f.path.startsWith(`${p}.`)) ? f : null);
  };

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    await apply(candidate(form.getFieldsValue(true)));
    setSaving(false);
  };

  const isStatic = STATIC.includes(type ?? '');
  const isPppoe = PPPOE.includes(type ?? '');
  return (
    <Form
      form={form}
      layout="vertical"
      onValuesChange={onValuesChange}
      disabled={!writable}
      data-testid="netset-form"
    >
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('network.wan.title')}>
            <Form.Item name="type" label={t('network.wan.type')}>
              <Select
                aria-label={t('network.wan.type')}
                data-testid="wan-type"
                options={[
                  { value: 'none', label: t('network.wan.none') },
                  ...Object.values(WanConnectionType).map((v) => ({
                    value: v,
                    label: t(`network.wan.types.${v}`),
                  })),
                ]}
              />
            </Form.Item>
            {isStatic && (
              <>
                <Form.Item
                  name="ip"
                  label={t('network.wan.ip')}
                  rules={[
                    { required: true, message: t('network.required') },
                    checkRule((v) => validateIpv4(v, 'WAN IP')),
                  ]}
                >
                  <Input data-testid="wan-ip" />
                </Form.Item>
                <Form.Item
                  name="mask"
                  label={t('network.mask')}
                  rules={[{ required: true, message: t('network.required') }]}
                >
                  <Input data-testid="wan-mask" />
                </Form.Item>
                <Form.Item
                  name="gateway"
                  label={t('network.gateway')}
                  rules={[
                    { required: true, message: t('network.required') },
                    checkRule((v) => validateIpv4(v, 'Gateway')),
                  ]}
                >
                  <Input data-testid="wan-gateway" />
                </Form.Item>
              </>
            )}
            {isPppoe && (
              <>
                <Form.Item
                  name="username"
                  label={t('network.wan.username')}
                  rules={[{ required: true, message: t('network.required') }]}
                >
                  <Input autoComplete="off" />
                </Form.Item>
                <Form.Item
                  name="password"
                  label={t('network.wan.password')}
                  rules={[{ required: true, message: t('network.required') }]}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              </>
            )}
            {type !== 'none' && (
              <Row gutter={8}>
                <Col xs={24} sm={12}>
                  <Form.Item
                    name="dns1"
                    label={t('network.dns1')}
                    rules={[checkRule((v) => validateDns([v]), true)]}
                  >
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item
                    name="dns2"
                    label={t('network.dns2')}
                    rules={[checkRule((v) => validateDns([form.getFieldValue('dns1') ?? '', v]), true)]}
                  >
                    <Input />
                  </Form.Item>
                </Col>
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('network.lan.title')}>
            <Form.Item
              name="lanIp"
              label={t('network.lan.ip')}
              rules={[
                checkRule(
                  (v) => validateHostAddress(v, maskOf(form.getFieldValue('lanMask')) ?? 24, 'LAN IP'),
                  true,
                ),
              ]}
            >
              <Input data-testid="lan-ip" />
            </Form.Item>
            <Form.Item name="lanMask" label={t('network.mask')}>
              <Input data-testid="lan-mask" />
            </Form.Item>
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <GuestCard form={form} />
        </Col>
        {TUNNEL_SERVERS.map((kind) => (
          <Col xs={24} lg={12} key={kind}>
            <TunnelServerCard form={form} kind={kind} />
          </Col>
        ))}
        {TUNNEL_CLIENT_LISTS.map((kind) => (
          <Col xs={24} key={kind}>
            <TunnelClientsCard kind={kind} />
          </Col>
        ))}
      </Row>
      {failure && (
        <Alert
          type="error"
          showIcon
          message={`${failure.message} (${failure.code})`}
          style={{ marginTop: 16 }}
          data-testid="netset-check"
        />
      )}
      <Button
        type="primary"
        onClick={submit}
        loading={saving}
        disabled={!writable || !!failure}
        style={{ marginTop: 16 }}
        data-testid="netset-save"
      >
        {t('network.save')}
      </Button>
    </Form>
  );
}

/**
 * /manage/networkconf/netset: the gateway's Internet (WAN) connection and its LAN, guest network,
 * PPPoE / PPTP / L2TP servers and PPTP / L2TP clients.
 */
export function NetsetPage() {
  const { t } = useTranslation();
  return (
    <NetworkPage title={t('route.wan')} testId="network-netset-page">
      {(props) => <NetsetSection {...props} />}
    </NetworkPage>
  );
}
