import { CopyOutlined, KeyOutlined, PlusOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import {
  type AccountView,
  ApiKeyBody,
  type ApiKeyView,
  ChangePasswordBody,
  MAX_CUSTOM_SCENARIOS,
  ScenarioBody,
  type ScenarioView,
  UpdateProfileBody,
} from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Avatar,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Form,
  Input,
  List,
  Modal,
  Row,
  Skeleton,
  Table,
  Typography,
  Upload,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type ApiKeyCreatedView, api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { reportFailure, useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { SESSION_KEY, useSession } from '../../session/session.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { storage } from '../../storage/storage.ts';
import { checkImageFile, formatDate, formatDateTime } from '../../util/format.ts';
import { checkConfirmation } from '../auth/passwordFields.tsx';
import { SCENARIOS_KEY } from '../projects/ScenarioSelect.tsx';

const ACCOUNT_KEY = ['account'] as const;
const API_KEYS_KEY = ['account', 'api-keys'] as const;

export function AccountPage() {
  const { t } = useTranslation();
  const session = useSession();
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: api.account });
  // The session carries the same AccountView: show it while /account loads (or if it fails).
  const data = account.data ?? session.data?.account;
  return (
    <>
      <PageTitle title={t('account.title')} />
      {data ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={14}>
            <ProfileCard account={data} />
          </Col>
          <Col xs={24} xl={10}>
            <PasswordCard />
          </Col>
          <Col xs={24} xl={10}>
            <ScenariosCard />
          </Col>
          <Col xs={24} xl={14}>
            <ApiKeysCard />
          </Col>
        </Row>
      ) : account.isError ? (
        <Alert type="error" showIcon title={t('common.loadFailed')} description={errorText(account.error)} />
      ) : (
        <Card>
          <Skeleton active />
        </Card>
      )}
    </>
  );
}

function useAccountSaved() {
  const queryClient = useQueryClient();
  return (updated: AccountView) => {
    queryClient.setQueryData(ACCOUNT_KEY, updated);
    queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    storage.setLastNick(updated.nick);
  };
}

/** The email field differs from the account's email as the server compares them (trimmed, lower case). */
function isEmailChange(value: string, current: string): boolean {
  return value.trim().toLowerCase() !== current;
}

function ProfileCard({ account }: { account: AccountView }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { busy, run } = useFormSubmit(form);
  const saved = useAccountSaved();

  useEffect(() => {
    form.setFieldsValue({
      nick: account.nick,
      email: account.email,
      companyName: account.companyName,
      companyLocation: account.companyLocation,
    });
  }, [account, form]);

  const nameLocked = account.companyNameLockedUntil !== null;
  const locationLocked = account.companyLocationLockedUntil !== null;
  // A new email needs the current password (the server refuses it otherwise): ask for it then.
  const emailValue: unknown = Form.useWatch('email', form);
  const emailChanged = typeof emailValue === 'string' && isEmailChange(emailValue, account.email);

  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['nick', 'email', 'companyName', 'companyLocation', 'currentPassword']);
    const changed: Record<string, unknown> = {};
    for (const k of ['nick', 'companyName', 'companyLocation'] as const) {
      if (String(values[k]).trim() !== account[k]) changed[k] = values[k];
    }
    if (isEmailChange(String(values.email), account.email)) {
      changed.email = values.email;
      if (values.currentPassword !== '') changed.currentPassword = values.currentPassword;
    }
    if (Object.keys(changed).length === 0) {
      showSuccess(t('account.noChanges'));
      return;
    }
    const body = parseForm(UpdateProfileBody, changed, form);
    if (!body) return;
    if (body.email !== undefined && !body.currentPassword) {
      form.setFields([{ name: 'currentPassword', errors: [t('account.currentPasswordRequired')] }]);
      return;
    }
    await run(async () => {
      const updated = await withLoadState('saving', () => api.updateAccount(body));
      form.setFieldValue('currentPassword', '');
      saved(updated);
      showSuccess(t('account.profileSaved'));
    });
  };

  const upload = async (file: File) => {
    const problem = checkImageFile(file);
    if (problem) {
      showError(t(problem));
      return;
    }
    try {
      const updated = await withLoadState('uploading', () => api.uploadAvatar(file));
      saved(updated);
      showSuccess(t('account.avatarUpdated'));
    } catch (e) {
      showError(errorText(e));
    }
  };

  const lockNote = (until: string | null) =>
    until ? t('account.lockedUntil', { date: formatDate(until) }) : t('account.onceAYear');

  return (
    <Card title={t('account.profile')}>
      <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 20 }}>
        <Avatar
          size={72}
          src={account.avatarUrl ?? undefined}
          icon={<UserOutlined />}
          data-testid="account-avatar"
        />
        <div>
          <Upload
            accept=".jpg,.jpeg,.png,.gif,.bmp,image/jpeg,image/png,image/gif,image/bmp"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="avatar-upload">
              {t('account.uploadAvatar')}
            </Button>
          </Upload>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('account.avatarHint')}
            </Typography.Text>
          </div>
        </div>
      </div>
      <Descriptions
        column={{ xs: 1, md: 2, xl: 1, xxl: 2 }}
        size="small"
        style={{ marginBottom: 16 }}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      >
        <Descriptions.Item label={t('account.cloudId')}>
          <Typography.Text copyable data-testid="account-cloud-id">
            {account.cloudId}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('account.role')}>
          <span data-testid="account-role">{t(`role.${account.role}`)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('account.loginAccount')}>{account.account}</Descriptions.Item>
        <Descriptions.Item label={t('account.memberSince')}>
          {formatDate(account.createdAt)}
        </Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="nick" label={t('account.nick')}>
              <Input autoFocus data-testid="account-nick" maxLength={32} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('account.email')}>
              <Input data-testid="account-email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="companyName"
              label={t('account.companyName')}
              extra={<span data-testid="company-name-rule">{lockNote(account.companyNameLockedUntil)}</span>}
            >
              <Input disabled={nameLocked} data-testid="account-company-name" maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="companyLocation"
              label={t('account.companyLocation')}
              extra={
                <span data-testid="company-location-rule">
                  {lockNote(account.companyLocationLockedUntil)}
                </span>
              }
            >
              <Input disabled={locationLocked} data-testid="account-company-location" maxLength={64} />
            </Form.Item>
          </Col>
          {emailChanged && (
            <Col xs={24} md={12}>
              <Form.Item
                name="currentPassword"
                label={t('account.currentPassword')}
                extra={t('account.currentPasswordHint')}
              >
                <Input.Password autoComplete="current-password" data-testid="account-current-password" />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="account-save">
          {t('account.saveProfile')}
        </Button>
      </Form>
    </Card>
  );
}

/** The password change ends every API key unless "keep" is ticked (off by default; decision 0023). */
function PasswordCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['oldPassword', 'password', 'confirmPassword']);
    const body = parseForm(ChangePasswordBody, { ...values, keepApiKeys: raw.keepApiKeys === true }, form);
    const same = checkConfirmation(form);
    if (!body || !same) return;
    await run(async () => {
      await withLoadState('saving', () => api.changePassword(body));
      form.resetFields();
      showSuccess(t(body.keepApiKeys ? 'account.passwordChanged' : 'account.passwordChangedKeysEnded'));
      queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
    });
  };
  return (
    <Card title={t('account.password')}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ oldPassword: '', password: '', confirmPassword: '', keepApiKeys: false }}
      >
        <Form.Item name="oldPassword" label={t('account.oldPassword')}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <Form.Item name="password" label={t('account.newPassword')}>
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('account.confirmPassword')}>
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
        <Form.Item name="keepApiKeys" valuePropName="checked" extra={t('account.keepApiKeysHint')}>
          <Checkbox data-testid="password-keep-api-keys">{t('account.keepApiKeys')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="password-submit">
          {t('account.changePassword')}
        </Button>
      </Form>
    </Card>
  );
}

/** One name and an add button, inline: a custom scenario, an API key. Cleared after it is saved. */
function NameForm({
  schema,
  placeholder,
  testIdPrefix,
  icon,
  label,
  disabled,
  submit,
}: {
  schema: z.ZodType<{ name: string }>;
  placeholder: string;
  testIdPrefix: string;
  icon: ReactNode;
  label: string;
  disabled?: boolean;
  submit(body: { name: string }): Promise<void>;
}) {
  const [form] = Form.useForm();
  const { busy, run } = useFormSubmit(form);
  const onFinish = async (raw: Record<string, unknown>) => {
    const body = parseForm(schema, blanks(raw, ['name']), form);
    if (!body) return;
    if ((await run(() => submit(body))).ok) form.resetFields();
  };
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={{ name: '' }}
      onFinish={onFinish}
      style={{ marginBottom: 12 }}
    >
      <Form.Item name="name" style={{ flex: 1 }}>
        <Input placeholder={placeholder} data-testid={`${testIdPrefix}-name`} maxLength={32} />
      </Form.Item>
      <Button
        htmlType="submit"
        icon={icon}
        loading={busy}
        disabled={disabled}
        data-testid={`${testIdPrefix}-submit`}
      >
        {label}
      </Button>
    </Form>
  );
}

function ScenariosCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: SCENARIOS_KEY, queryFn: api.scenarios });
  const count = list.data?.length ?? 0;
  const remove = useMutation({
    mutationFn: (s: ScenarioView) => api.deleteScenario(s.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCENARIOS_KEY }),
    onError: (e) => reportFailure(e),
  });
  return (
    <Card title={t('account.scenarios')}>
      <Typography.Paragraph type="secondary">
        {t('account.scenariosHint', { count, max: MAX_CUSTOM_SCENARIOS })}
      </Typography.Paragraph>
      <NameForm
        schema={ScenarioBody}
        placeholder={t('account.scenarioName')}
        testIdPrefix="scenario"
        icon={<PlusOutlined />}
        label={t('account.addScenario')}
        disabled={count >= MAX_CUSTOM_SCENARIOS}
        submit={async (body) => {
          await api.addScenario(body);
          queryClient.invalidateQueries({ queryKey: SCENARIOS_KEY });
        }}
      />
      <List
        size="small"
        bordered
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{ emptyText: t('account.noScenarios') }}
        renderItem={(s) => (
          <List.Item
            actions={[
              <DeleteButton
                key="del"
                size="small"
                confirm={t('account.deleteScenarioConfirm', { name: s.name })}
                onConfirm={() => remove.mutate(s)}
              />,
            ]}
          >
            {s.name}
          </List.Item>
        )}
      />
    </Card>
  );
}

function ApiKeysCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<ApiKeyCreatedView | null>(null);
  const keys = useQuery({ queryKey: API_KEYS_KEY, queryFn: api.apiKeys });
  const remove = useMutation({
    mutationFn: (k: ApiKeyView) => api.deleteApiKey(k.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
    onError: (e) => reportFailure(e),
  });
  return (
    <Card title={t('account.apiKeys')}>
      <Typography.Paragraph type="secondary">{t('account.apiKeysHint')}</Typography.Paragraph>
      <NameForm
        schema={ApiKeyBody}
        placeholder={t('account.keyName')}
        testIdPrefix="apikey"
        icon={<KeyOutlined />}
        label={t('account.createKey')}
        submit={async (body) => {
          setCreated(await api.createApiKey(body));
          queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
        }}
      />
      <Table<ApiKeyView>
        rowKey="id"
        size="small"
        loading={keys.isLoading}
        dataSource={keys.data ?? []}
        pagination={false}
        data-testid="apikey-table"
        locale={{ emptyText: t('account.noKeys') }}
        columns={[
          { title: t('account.keyName'), dataIndex: 'name', key: 'name' },
          {
            title: t('account.keyPrefix'),
            dataIndex: 'prefix',
            key: 'prefix',
            render: (p: string) => <code>{p}…</code>,
          },
          {
            title: t('account.keyCreatedAt'),
            dataIndex: 'createdAt',
            key: 'createdAt',
            render: formatDateTime,
          },
          {
            title: t('account.keyLastUsed'),
            dataIndex: 'lastUsedAt',
            key: 'lastUsedAt',
            render: (s: string | null) => (s ? formatDateTime(s) : t('common.never')),
          },
          {
            key: 'actions',
            width: 48,
            render: (_: unknown, k) => (
              <DeleteButton
                size="small"
                confirm={t('account.deleteKeyConfirm', { name: k.name })}
                onConfirm={() => remove.mutate(k)}
              />
            ),
          },
        ]}
      />
      <Modal
        open={created !== null}
        title={t('account.keyCreatedTitle')}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="apikey-done">
            {t('common.close')}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t('account.keyShownOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph
          code
          copyable={{ text: created?.key ?? '', icon: [<CopyOutlined key="c" />, <CopyOutlined key="d" />] }}
          data-testid="apikey-secret"
          style={{ wordBreak: 'break-all' }}
        >
          {created?.key}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
