import { KeyOutlined } from '@ant-design/icons';
import { API_KEY_DEFAULT_RATE, API_KEY_MAX_RATE, ApiKeyBody, ApiKeyScope } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';

interface Values {
  name: string;
  scope: ApiKeyScope;
  projectIds: number[];
  expiresAt: string;
  ratePerMinute: number | null;
}

const INITIAL: Values = {
  name: '',
  scope: ApiKeyScope.READ,
  projectIds: [],
  expiresAt: '',
  ratePerMinute: API_KEY_DEFAULT_RATE,
};

/**
 * A new API key (docs/decisions/0058): name, scope, optionally some projects, an expiry and a rate
 * per minute; validated with the protocol's ApiKeyBody, as the server does.
 */
export function ApiKeyForm({ submit }: { submit(body: ApiKeyBody): Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useFormSubmit(form);
  const projects = useQuery({
    queryKey: ['projects', 'api-key-choices'],
    queryFn: () => api.projects({ pageSize: 200, sort: 'name', order: 'asc' }),
  });
  const options = (projects.data?.items ?? [])
    .filter((p) => !p.isDemo)
    .map((p) => ({ value: p.id, label: p.name }));

  const onFinish = async (raw: Values) => {
    const body = parseForm(
      ApiKeyBody,
      {
        name: raw.name ?? '',
        scope: raw.scope,
        ...(raw.projectIds?.length ? { projectIds: raw.projectIds } : {}),
        ...(raw.expiresAt ? { expiresAt: new Date(raw.expiresAt).toISOString() } : {}),
        ...(raw.ratePerMinute ? { ratePerMinute: raw.ratePerMinute } : {}),
      },
      form,
    );
    if (!body) return;
    if ((await run(() => submit(body))).ok) form.resetFields();
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={INITIAL}
      onFinish={onFinish}
      requiredMark={false}
    >
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('account.keyName')}>
            <Input data-testid="apikey-name" maxLength={32} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="scope" label={t('account.keyScope')}>
            <Radio.Group data-testid="apikey-scope">
              <Radio value={ApiKeyScope.READ} data-testid="apikey-scope-read">
                {t('account.keyScopeRead')}
              </Radio>
              <Radio value={ApiKeyScope.READ_WRITE} data-testid="apikey-scope-rw">
                {t('account.keyScopeReadWrite')}
              </Radio>
            </Radio.Group>
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="projectIds" label={t('account.keyProjects')} extra={t('account.keyProjectsHint')}>
            <Select
              mode="multiple"
              allowClear
              options={options}
              loading={projects.isLoading}
              placeholder={t('account.keyAllProjects')}
              data-testid="apikey-projects"
              aria-label={t('account.keyProjects')}
              optionFilterProp="label"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="expiresAt" label={t('account.keyExpires')} extra={t('account.keyExpiresHint')}>
            <Input type="datetime-local" data-testid="apikey-expires" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="ratePerMinute" label={t('account.keyRate')}>
            <InputNumber
              min={1}
              max={API_KEY_MAX_RATE}
              style={{ width: '100%' }}
              data-testid="apikey-rate"
              aria-label={t('account.keyRate')}
            />
          </Form.Item>
        </Col>
      </Row>
      <Button htmlType="submit" icon={<KeyOutlined />} loading={busy} data-testid="apikey-submit">
        {t('account.createKey')}
      </Button>
    </Form>
  );
}
