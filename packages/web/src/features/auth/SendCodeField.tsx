import { SafetyOutlined } from '@ant-design/icons';
import { type CodePurpose, SendCodeBody } from '@beacon/protocol';
import { Button, Form, type FormInstance, Input, type InputProps, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { issuesToFields, showFieldErrors } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { CODE_RESEND_SECONDS, useCountdown } from './useCountdown.ts';

/** Email code input with a send button that counts down 60 s after each send. */
export function SendCodeField({
  form,
  purpose,
  testIdPrefix,
}: {
  form: FormInstance;
  purpose: CodePurpose;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const [left, start] = useCountdown();
  const { busy: sending, run } = useFormSubmit(form);

  const send = async () => {
    const email = String(form.getFieldValue('email') ?? '');
    const parsed = SendCodeBody.safeParse({ email, purpose });
    if (!parsed.success) {
      showFieldErrors(form, issuesToFields(parsed.error));
      return;
    }
    form.setFields([{ name: 'email', errors: [] }]);
    await run(async () => {
      await api.sendCode(parsed.data);
      start(CODE_RESEND_SECONDS);
      showSuccess(t('auth.codeSent', { email: parsed.data.email }));
    });
  };

  const button = (
    <Button
      onClick={send}
      loading={sending}
      disabled={left > 0}
      data-testid={`${testIdPrefix}-send-code`}
      style={{ minWidth: 124 }}
    >
      {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendCode')}
    </Button>
  );

  return (
    <Form.Item name="code" label={t('auth.code')}>
      <CodeInput
        button={button}
        placeholder={t('auth.codePlaceholder')}
        data-testid={`${testIdPrefix}-code`}
      />
    </Form.Item>
  );
}

/** The code input and its send button side by side; Form.Item drives value and onChange. */
function CodeInput({ button, ...rest }: InputProps & { button: ReactNode }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        prefix={<SafetyOutlined />}
        inputMode="numeric"
        maxLength={6}
        autoComplete="one-time-code"
        {...rest}
      />
      {button}
    </Space.Compact>
  );
}
