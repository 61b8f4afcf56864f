import { Button, Form, Input } from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';

/** One name and an add button, inline: a custom scenario, an API key. Cleared after it is saved. */
export function NameForm({
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
