import { TransferBody } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App as AntApp, type ButtonProps, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { sharesKey, sharingApi, targetOf } from './api.ts';

/**
 * Offers the project to another account, after a confirmation. The project stays this account's
 * until the other account accepts (docs/decisions/0022); then it leaves this account's list.
 */
export function TransferModal({
  open,
  projectId,
  projectName,
  onClose,
}: {
  open: boolean;
  projectId: number;
  projectName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const [form] = Form.useForm<{ target: string }>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const transfer = (body: TransferBody) =>
    run(async () => {
      const offered = await withLoadState('saving', () => sharingApi.transfer(projectId, body));
      showSuccess(t('sharing.transferOffered', { account: offered.toAccount }));
      queryClient.invalidateQueries({ queryKey: sharesKey(projectId) });
      onClose();
    });

  const submit = () => {
    const target = (form.getFieldValue('target') as string | undefined)?.trim() ?? '';
    if (!target) {
      form.setFields([{ name: 'target', errors: [t('sharing.targetRequired')] }]);
      return;
    }
    const body = parseForm(TransferBody, targetOf(target), form);
    if (!body) return;
    modal.confirm({
      title: t('sharing.transferConfirmTitle'),
      content: t('sharing.transferConfirm', { project: projectName, target }),
      okText: t('sharing.transfer'),
      okButtonProps: { danger: true, 'data-testid': 'transfer-confirm' } as ButtonProps,
      cancelText: t('common.cancel'),
      width: 360,
      onOk: () => transfer(body),
    });
  };

  return (
    <Modal
      open={open}
      title={t('sharing.transferTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('sharing.transfer')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ danger: true, 'data-testid': 'transfer-submit' }}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('sharing.transferWarning')} style={{ margin: '16px 0' }} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item name="target" label={t('sharing.transferTarget')} extra={t('sharing.targetHelp')}>
          <Input placeholder={t('sharing.targetPlaceholder')} data-testid="transfer-target" maxLength={254} />
        </Form.Item>
        <EnterSubmits />
      </Form>
    </Modal>
  );
}
