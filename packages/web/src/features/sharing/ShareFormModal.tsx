import {
  CreateShareBody,
  SHARE_HOURS_MAX,
  SHARE_HOURS_MIN,
  SharePermission,
  ShareValidity,
  type ShareView,
  UpdateShareBody,
} from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { sharesKey, sharingApi, targetOf } from './api.ts';

interface FormValues {
  target: string;
  permission: SharePermission;
  validity: ShareValidity;
  hours: number | null;
}

/** Share the project (share === null) or change an existing share's permission and validity. */
export function ShareFormModal({
  open,
  projectId,
  share,
  onClose,
}: {
  open: boolean;
  projectId: number;
  share: ShareView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const validity = Form.useWatch('validity', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      share
        ? {
            target: share.account,
            permission: share.permission,
            validity: share.validity,
            hours: share.hours,
          }
        : { target: '', permission: SharePermission.READ_ONLY, validity: ShareValidity.PERMANENT, hours: 24 },
    );
  }, [open, share, form]);

  const submit = async () => {
    const values = form.getFieldsValue(true) as FormValues;
    const hours = values.validity === ShareValidity.TIMED ? values.hours : null;
    await run(async () => {
      if (share) {
        const body = parseForm(
          UpdateShareBody,
          { permission: values.permission, validity: values.validity, hours },
          form,
        );
        if (!body) return;
        await withLoadState('saving', () => sharingApi.updateShare(projectId, share.accountId, body));
      } else {
        if (!values.target?.trim()) {
          form.setFields([{ name: 'target', errors: [t('sharing.targetRequired')] }]);
          return;
        }
        const body = parseForm(
          CreateShareBody,
          { ...targetOf(values.target), permission: values.permission, validity: values.validity, hours },
          form,
        );
        if (!body) return;
        await withLoadState('saving', () => sharingApi.createShare(projectId, body));
      }
      showSuccess(t(share ? 'sharing.updated' : 'sharing.shared'));
      queryClient.invalidateQueries({ queryKey: sharesKey(projectId) });
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      title={share ? t('sharing.editTitle') : t('sharing.shareTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'share-form-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        style={{ marginTop: 16 }}
        data-testid="share-form"
        onFinish={submit}
      >
        <Form.Item
          name="target"
          label={t('sharing.target')}
          extra={share ? undefined : t('sharing.targetHelp')}
        >
          <Input
            disabled={!!share}
            autoFocus={!share}
            placeholder={t('sharing.targetPlaceholder')}
            data-testid="share-form-target"
            maxLength={254}
          />
        </Form.Item>
        <Form.Item name="permission" label={t('sharing.permission')}>
          <Radio.Group>
            <Radio value={SharePermission.READ_ONLY} data-testid="share-form-permission-r">
              {t('sharing.permissionR')}
            </Radio>
            <Radio value={SharePermission.READ_WRITE} data-testid="share-form-permission-rw">
              {t('sharing.permissionRw')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="validity" label={t('sharing.validity')}>
          <Radio.Group>
            <Radio value={ShareValidity.PERMANENT} data-testid="share-form-permanent">
              {t('sharing.permanent')}
            </Radio>
            <Radio value={ShareValidity.TIMED} data-testid="share-form-timed">
              {t('sharing.timed')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {validity === ShareValidity.TIMED ? (
          <Form.Item name="hours" label={t('sharing.hours')} extra={t('sharing.hoursHelp')}>
            <InputNumber
              min={SHARE_HOURS_MIN}
              max={SHARE_HOURS_MAX}
              precision={0}
              style={{ width: 160 }}
              data-testid="share-form-hours"
            />
          </Form.Item>
        ) : null}
        <EnterSubmits />
      </Form>
    </Modal>
  );
}
