import { AccountRole, CreateSubordinateBody, SubordinateLevel } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type ButtonProps, Form, Input, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { TEAM_KEY, teamApi } from './api.ts';

interface Values {
  email: string;
  nick: string;
  role: number;
  level: number;
}

const INITIAL: Values = {
  email: '',
  nick: '',
  role: AccountRole.NORMAL,
  level: SubordinateLevel.ADMIN,
};

/**
 * Add a subordinate account: email (its login), nick, role code and level. No password: the account
 * is mailed a link to set its own (decision 0068).
 */
export function SubordinateModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useFormSubmit(form);
  const onFinish = async (raw: Values) => {
    const body = parseForm(CreateSubordinateBody, raw, form);
    if (!body) return;
    const result = await run(() => teamApi.create(body));
    if (!result.ok) return;
    showSuccess(t('team.invitationSent', { email: body.email }));
    await queryClient.invalidateQueries({ queryKey: TEAM_KEY });
    form.resetFields();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('team.add')}
      onCancel={onClose}
      okText={t('team.create')}
      okButtonProps={{ loading: busy, 'data-testid': 'subordinate-submit' } as ButtonProps}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        onFinish={onFinish}
        requiredMark={false}
      >
        <Form.Item name="email" label={t('team.email')} extra={t('team.invitationHint')}>
          <Input type="email" autoComplete="off" data-testid="subordinate-email" />
        </Form.Item>
        <Form.Item name="nick" label={t('team.nick')}>
          <Input maxLength={32} data-testid="subordinate-nick" />
        </Form.Item>
        <Form.Item name="role" label={t('team.role')}>
          <Select
            aria-label={t('team.role')}
            data-testid="subordinate-role"
            options={Object.values(AccountRole).map((code) => ({
              value: code,
              label: t(`team.roleCode.${code}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="level" label={t('team.level')} extra={t('team.levelHint')}>
          <Radio.Group>
            <Radio value={SubordinateLevel.ADMIN} data-testid="subordinate-level-admin">
              {t('team.levelName.1')}
            </Radio>
            <Radio value={SubordinateLevel.GUEST} data-testid="subordinate-level-guest">
              {t('team.levelName.0')}
            </Radio>
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
