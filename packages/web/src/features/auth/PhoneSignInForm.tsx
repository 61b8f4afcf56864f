import { LockOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { DEFAULT_REGION_CODE, PhoneLoginBody, PhoneSignInCodeBody, type SignInStep } from '@beacon/protocol';
import { Button, Checkbox, Form, Input, Radio, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { identityApi } from '../identity/identityApi.ts';
import { CODE_RESEND_SECONDS, useCountdown } from './useCountdown.ts';

type Method = 'password' | 'code';

/**
 * The "Phone" tab of the sign-in page (decision 0068): a verified phone number (region code 86 by
 * default) with the password or a 4-digit SMS code. `signIn` runs the call, so the page handles the
 * second factor and "sign in here anyway" (69) for both tabs alike.
 */
export function PhoneSignInForm({
  signIn,
}: {
  signIn: (call: (force: boolean) => Promise<SignInStep>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [method, setMethod] = useState<Method>('password');
  const [left, startCountdown] = useCountdown();
  const { busy: sending, run: runSend } = useFormSubmit(form);
  const { busy, run } = useFormSubmit(form);
  const values = () => blanks(form.getFieldsValue(), ['regionCode', 'phone', 'password', 'code']);

  const send = async () => {
    const v = values();
    const body = parseForm(PhoneSignInCodeBody, { regionCode: v.regionCode, phone: v.phone }, form);
    if (!body) return;
    await runSend(async () => {
      await identityApi.phoneSignInCode(body.regionCode, body.phone);
      startCountdown(CODE_RESEND_SECONDS);
      showSuccess(t('auth.smsSent', { phone: `+${body.regionCode} ${body.phone}` }));
    });
  };

  const onFinish = async () => {
    const v = values();
    const raw = {
      regionCode: v.regionCode,
      phone: v.phone,
      remember: form.getFieldValue('remember') === true,
      ...(method === 'password' ? { password: v.password ?? '' } : { code: v.code ?? '' }),
    };
    const body = parseForm(PhoneLoginBody, raw, form);
    if (!body) return;
    await run(() => signIn((force) => identityApi.phoneLogin(force ? { ...body, force } : body)));
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ regionCode: DEFAULT_REGION_CODE, phone: '', password: '', code: '', remember: false }}
    >
      <Space.Compact block>
        <Form.Item name="regionCode" label={t('identity.regionCode')} style={{ width: 110 }}>
          <Input prefix="+" inputMode="numeric" data-testid="login-phone-region" />
        </Form.Item>
        <Form.Item name="phone" label={t('identity.phoneNumber')} style={{ flex: 1 }}>
          <Input
            prefix={<MobileOutlined />}
            inputMode="numeric"
            autoComplete="tel-national"
            data-testid="login-phone-number"
          />
        </Form.Item>
      </Space.Compact>
      <Form.Item label={t('auth.phoneMethod')}>
        <Radio.Group
          value={method}
          onChange={(e) => setMethod(e.target.value as Method)}
          optionType="button"
          options={[
            { value: 'password', label: t('auth.password') },
            { value: 'code', label: t('identity.smsCode') },
          ]}
          data-testid="login-phone-method"
        />
      </Form.Item>
      {method === 'password' ? (
        <Form.Item name="password" label={t('auth.password')}>
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            data-testid="login-phone-password"
          />
        </Form.Item>
      ) : (
        <Form.Item label={t('identity.smsCode')} required={false}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle>
              <Input
                prefix={<SafetyOutlined />}
                inputMode="numeric"
                maxLength={4}
                autoComplete="one-time-code"
                placeholder={t('auth.smsCodePlaceholder')}
                aria-label={t('identity.smsCode')}
                data-testid="login-phone-code"
              />
            </Form.Item>
            <Button
              onClick={send}
              loading={sending}
              disabled={left > 0}
              style={{ minWidth: 124 }}
              data-testid="login-phone-send"
            >
              {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
      )}
      <Form.Item name="remember" valuePropName="checked">
        <Checkbox data-testid="login-phone-remember">{t('auth.remember')}</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-phone-submit">
        {t('auth.login')}
      </Button>
    </Form>
  );
}
