import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type GuestNetwork,
  type NetworkDocument,
  type NetworkDocumentInput,
  TUNNEL_CLIENTS_MAX,
  type TunnelClient,
  type TunnelServer,
  validateIpv4,
  validateTunnelPeer,
} from '@beacon/protocol';
import { Button, Card, Col, Form, type FormInstance, Input, Row, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { dnsOf, maskOf, maskText } from './fields.ts';

/**
 * The gateway's guest network, its PPPoE / PPTP / L2TP servers and its PPTP / L2TP clients on the
 * Internet screen (docs/decisions/0046). The form keeps them as text fields; `tunnelValues` and
 * `tunnelDocument` convert from and to the network document, which the screen checks with the
 * server's validator as the user types.
 */

type ServerKey = 'pppoeServer' | 'pptpServer' | 'l2tpServer';
type ClientKey = 'pptpClients' | 'l2tpClients';
const SERVERS: ServerKey[] = ['pppoeServer', 'pptpServer', 'l2tpServer'];
const CLIENTS: ClientKey[] = ['pptpClients', 'l2tpClients'];

interface ServerValues {
  ip: string;
  mask: string;
  startIp: string;
  endIp: string;
  dns1: string;
  dns2: string;
  accounts: { username: string; password: string }[];
}
interface ClientValues {
  name: string;
  server: string;
  username: string;
  password: string;
  remoteIp: string;
  remoteMask: string;
}

export interface TunnelValues {
  guestOn: boolean;
  guest: { ip: string; mask: string };
  pppoeServerOn: boolean;
  pppoeServer: ServerValues;
  pptpServerOn: boolean;
  pptpServer: ServerValues;
  l2tpServerOn: boolean;
  l2tpServer: ServerValues;
  pptpClients: ClientValues[];
  l2tpClients: ClientValues[];
}

/** The paths of the network document these cards edit (a failure there is shown on this screen). */
export const TUNNEL_PATHS = ['guest', ...SERVERS, ...CLIENTS];

const serverValues = (s: TunnelServer | null): ServerValues => ({
  ip: s?.ip ?? '',
  mask: maskText(s?.mask ?? 24),
  startIp: s?.startIp ?? '',
  endIp: s?.endIp ?? '',
  dns1: s?.dns[0] ?? '',
  dns2: s?.dns[1] ?? '',
  accounts: s?.accounts.map((a) => ({ ...a })) ?? [],
});

const clientValues = (c: TunnelClient): ClientValues => ({ ...c, remoteMask: maskText(c.remoteMask) });

export function tunnelValues(doc: NetworkDocument): TunnelValues {
  const g: GuestNetwork | null = doc.guest;
  return {
    guestOn: g !== null,
    guest: { ip: g?.ip ?? '', mask: maskText(g?.mask ?? 24) },
    pppoeServerOn: doc.pppoeServer !== null,
    pppoeServer: serverValues(doc.pppoeServer),
    pptpServerOn: doc.pptpServer !== null,
    pptpServer: serverValues(doc.pptpServer),
    l2tpServerOn: doc.l2tpServer !== null,
    l2tpServer: serverValues(doc.l2tpServer),
    pptpClients: doc.pptpClients.map(clientValues),
    l2tpClients: doc.l2tpClients.map(clientValues),
  };
}

const trim = (s: string | undefined) => (s ?? '').trim();

/** The document's guest, server and client sections from the form's values. */
export function tunnelDocument(x: TunnelValues): Partial<NetworkDocumentInput> {
  const server = (on: boolean, s: ServerValues | undefined) =>
    on && s
      ? {
          ip: trim(s.ip),
          mask: maskOf(s.mask) ?? '',
          startIp: trim(s.startIp),
          endIp: trim(s.endIp),
          dns: dnsOf(s.dns1, s.dns2),
          accounts: (s.accounts ?? []).map((a) => ({
            username: trim(a?.username),
            password: a?.password ?? '',
          })),
        }
      : null;
  const clients = (list: ClientValues[] | undefined) =>
    (list ?? []).map((c) => ({
      name: c?.name ?? '',
      server: trim(c?.server),
      username: trim(c?.username),
      password: c?.password ?? '',
      remoteIp: trim(c?.remoteIp),
      remoteMask: maskOf(c?.remoteMask) ?? '',
    }));
  return {
    guest: x.guestOn ? { ip: trim(x.guest?.ip), mask: maskOf(x.guest?.mask) ?? '' } : null,
    pppoeServer: server(x.pppoeServerOn, x.pppoeServer),
    pptpServer: server(x.pptpServerOn, x.pptpServer),
    l2tpServer: server(x.l2tpServerOn, x.l2tpServer),
    pptpClients: clients(x.pptpClients),
    l2tpClients: clients(x.l2tpClients),
  };
}

const ipRule = (label: string) => checkRule((v) => validateIpv4(v, label));

/** The guest network: on/off, its IP and mask (isolated from the LAN and the VLANs). */
export function GuestCard({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const on = Form.useWatch('guestOn', form);
  return (
    <Card size="small" title={t('network.guest.title')} data-testid="guest-card">
      <Form.Item name="guestOn" label={t('network.guest.on')} valuePropName="checked">
        <Switch aria-label={t('network.guest.on')} data-testid="guest-on" />
      </Form.Item>
      {on && (
        <Row gutter={8}>
          <Col xs={24} sm={12}>
            <Form.Item
              name={['guest', 'ip']}
              label={t('network.guest.ip')}
              rules={[{ required: true, message: t('network.required') }, ipRule('Guest network IP')]}
            >
              <Input data-testid="guest-ip" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name={['guest', 'mask']} label={t('network.mask')}>
              <Input data-testid="guest-mask" />
            </Form.Item>
          </Col>
        </Row>
      )}
      <p>{t('network.guest.isolated')}</p>
    </Card>
  );
}

/** A PPPoE, PPTP or L2TP server: on/off, address and mask, client range, DNS, accounts. */
export function TunnelServerCard({ form, kind }: { form: FormInstance; kind: ServerKey }) {
  const { t } = useTranslation();
  const on = Form.useWatch(`${kind}On`, form);
  const title = t(`network.tunnel.${kind}`);
  return (
    <Card size="small" title={title} data-testid={`${kind}-card`}>
      <Form.Item name={`${kind}On`} label={t('network.tunnel.on')} valuePropName="checked">
        <Switch aria-label={`${title}: ${t('network.tunnel.on')}`} data-testid={`${kind}-on`} />
      </Form.Item>
      {on && (
        <>
          <Row gutter={8}>
            <Col xs={24} sm={12}>
              <Form.Item
                name={[kind, 'ip']}
                label={t('network.tunnel.ip')}
                rules={[{ required: true, message: t('network.required') }, ipRule('Server IP')]}
              >
                <Input data-testid={`${kind}-ip`} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name={[kind, 'mask']} label={t('network.mask')}>
                <Input data-testid={`${kind}-mask`} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name={[kind, 'startIp']}
                label={t('network.tunnel.startIp')}
                rules={[{ required: true, message: t('network.required') }, ipRule('Start IP')]}
              >
                <Input data-testid={`${kind}-start`} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name={[kind, 'endIp']}
                label={t('network.tunnel.endIp')}
                rules={[{ required: true, message: t('network.required') }, ipRule('End IP')]}
              >
                <Input data-testid={`${kind}-end`} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name={[kind, 'dns1']} label={t('network.dns1')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name={[kind, 'dns2']} label={t('network.dns2')}>
                <Input />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name={[kind, 'accounts']}>
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" wrap>
                    <Form.Item name={[f.name, 'username']} label={t('network.tunnel.username')}>
                      <Input autoComplete="off" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'password']} label={t('network.tunnel.password')}>
                      <Input.Password autoComplete="new-password" />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      aria-label={t('network.tunnel.removeAccount')}
                      onClick={() => remove(f.name)}
                    />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ username: '', password: '' })}
                  data-testid={`${kind}-add-account`}
                >
                  {t('network.tunnel.addAccount')}
                </Button>
              </>
            )}
          </Form.List>
        </>
      )}
    </Card>
  );
}

/** The tunnels the gateway dials as a PPTP or L2TP client (at most 4 of each). */
export function TunnelClientsCard({ kind }: { kind: ClientKey }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t(`network.tunnel.${kind}`)} data-testid={`${kind}-card`}>
      <Form.List name={kind}>
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <p>{t('network.tunnel.noClients')}</p>}
            {fields.map((f) => (
              <Row gutter={8} key={f.key} align="bottom">
                <Col xs={24} sm={8}>
                  <Form.Item name={[f.name, 'name']} label={t('network.tunnel.name')}>
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item
                    name={[f.name, 'server']}
                    label={t('network.tunnel.server')}
                    rules={[checkRule(validateTunnelPeer)]}
                  >
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item name={[f.name, 'username']} label={t('network.tunnel.username')}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item name={[f.name, 'password']} label={t('network.tunnel.password')}>
                    <Input.Password autoComplete="new-password" />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item
                    name={[f.name, 'remoteIp']}
                    label={t('network.tunnel.remoteIp')}
                    rules={[ipRule('Remote network')]}
                  >
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={20} sm={6}>
                  <Form.Item name={[f.name, 'remoteMask']} label={t('network.mask')}>
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={4} sm={2}>
                  <Form.Item>
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      aria-label={t('network.tunnel.removeClient')}
                      onClick={() => remove(f.name)}
                    />
                  </Form.Item>
                </Col>
              </Row>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= TUNNEL_CLIENTS_MAX}
              onClick={() =>
                add({ name: '', server: '', username: '', password: '', remoteIp: '', remoteMask: '24' })
              }
              data-testid={`${kind}-add`}
            >
              {t('network.tunnel.addClient', { max: TUNNEL_CLIENTS_MAX })}
            </Button>
          </>
        )}
      </Form.List>
    </Card>
  );
}

export const TUNNEL_SERVERS = SERVERS;
export const TUNNEL_CLIENT_LISTS = CLIENTS;
