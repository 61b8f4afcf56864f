import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { type AccountView, UpdateProfileBody } from '@beacon/protocol';
import { Avatar, Button, Card, Col, Descriptions, Form, Input, Row, Typography, Upload } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { checkImageFile, formatDate } from '../../util/format.ts';

import { useAccountSaved } from './accountCache.ts';

/** The email field differs from the account's email as the server compares them (trimmed, lower case). */
function isEmailChange(value: string, current: string): boolean {
  return value.trim().toLowerCase() !== current;
}

export function ProfileCard({ account }: { account: AccountView }) {
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
