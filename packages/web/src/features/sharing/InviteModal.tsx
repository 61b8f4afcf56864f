import {
  CreateInviteBody,
  INVITE_TTL_HOURS_DEFAULT,
  INVITE_TTL_HOURS_MAX,
  INVITE_TTL_HOURS_MIN,
  type InviteView,
  SHARE_HOURS_MAX,
  SHARE_HOURS_MIN,
  ShareValidity,
} from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { formatDateTime } from '../../util/format.ts';
import { sharesKey, sharingApi, targetOf } from './api.ts';

interface FormValues {
  target: string;
  validity: ShareValidity;
  hours: number | null;
  expiresInHours: number;
}

async function copy(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showSuccess(done);
  } catch {
    // Without clipboard permission the code stays selectable on screen.
  }
}

/** Creates an expiring, single-use invite code (read-only, SPEC.md §6) and shows it once, with its link. */
export function InviteModal({
  open,
  projectId,
  onClose,
}: {
  open: boolean;
  projectId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const [created, setCreated] = useState<InviteView | null>(null);
  const validity = Form.useWatch('validity', form);

  useEffect(() => {
    if (!open) return;
    setCreated(null);
    form.resetFields();
    form.setFieldsValue({
      target: '',
      validity: ShareValidity.PERMANENT,
      hours: 24,
      expiresInHours: INVITE_TTL_HOURS_DEFAULT,
    });
  }, [open, form]);

  const submit = async () => {
    const v = form.getFieldsValue(true) as FormValues;
    const body = parseForm(
      CreateInviteBody,
      {
        ...(v.target?.trim() ? targetOf(v.target) : {}),
        validity: v.validity,
        hours: v.validity === ShareValidity.TIMED ? v.hours : null,
        expiresInHours: v.expiresInHours,
      },
      form,
    );
    if (!body) return;
    await run(async () => {
      setCreated(await withLoadState('saving', () => sharingApi.createInvite(projectId, body)));
      queryClient.invalidateQueries({ queryKey: sharesKey(projectId) });
    });
  };

  const link = created?.link ? `${window.location.origin}${created.link}` : '';

  return (
    <Modal
      open={open}
      title={t('sharing.inviteTitle')}
      onCancel={onClose}
      onOk={created ? onClose : submit}
      okText={created ? t('common.close') : t('sharing.inviteCreate')}
      cancelText={t('common.cancel')}
      cancelButtonProps={created ? { style: { display: 'none' } } : undefined}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': created ? 'invite-close' : 'invite-submit' }}
      destroyOnHidden
    >
      {created ? (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="invite-created">
          <Alert
            type="success"
            showIcon
            title={t('sharing.inviteCreated', { time: formatDateTime(created.expiresAt) })}
          />
          <Typography.Text type="secondary">{t('sharing.inviteCode')}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={created.code ?? ''} data-testid="invite-code" />
            <Button
              onClick={() => copy(created.code ?? '', t('common.copied'))}
              data-testid="invite-copy-code"
            >
              {t('common.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">{t('sharing.inviteLink')}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={link} data-testid="invite-link" />
            <Button onClick={() => copy(link, t('common.copied'))} data-testid="invite-copy-link">
              {t('common.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">{t('sharing.inviteOnce')}</Typography.Text>
        </Space>
      ) : (
        <Form form={form} layout="vertical" requiredMark={false} style={{ marginTop: 16 }} onFinish={submit}>
          <Form.Item name="target" label={t('sharing.inviteTarget')} extra={t('sharing.inviteTargetHelp')}>
            <Input placeholder={t('sharing.targetPlaceholder')} data-testid="invite-target" maxLength={254} />
          </Form.Item>
          <Alert type="info" showIcon title={t('sharing.inviteReadOnly')} style={{ marginBottom: 16 }} />
          <Form.Item name="validity" label={t('sharing.validity')}>
            <Radio.Group>
              <Radio value={ShareValidity.PERMANENT}>{t('sharing.permanent')}</Radio>
              <Radio value={ShareValidity.TIMED}>{t('sharing.timed')}</Radio>
            </Radio.Group>
          </Form.Item>
          {validity === ShareValidity.TIMED ? (
            <Form.Item name="hours" label={t('sharing.hours')}>
              <InputNumber min={SHARE_HOURS_MIN} max={SHARE_HOURS_MAX} precision={0} style={{ width: 160 }} />
            </Form.Item>
          ) : null}
          <Form.Item
            name="expiresInHours"
            label={t('sharing.inviteExpiresIn')}
            extra={t('sharing.inviteExpiresHelp')}
          >
            <InputNumber
              min={INVITE_TTL_HOURS_MIN}
              max={INVITE_TTL_HOURS_MAX}
              precision={0}
              style={{ width: 160 }}
              data-testid="invite-expires"
            />
          </Form.Item>
          <EnterSubmits />
        </Form>
      )}
    </Modal>
  );
}
