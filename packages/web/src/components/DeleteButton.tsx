import { DeleteOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Popconfirm, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A row's trash-can button: asks first, explains in its tooltip why it is off. */
export function DeleteButton({
  confirm,
  description,
  blockedReason,
  testId,
  confirmTestId,
  size,
  onConfirm,
}: {
  confirm: ReactNode;
  description?: ReactNode;
  /** Why deleting is not allowed (the button is then disabled), or undefined. */
  blockedReason?: string;
  testId?: string;
  confirmTestId?: string;
  size?: ButtonProps['size'];
  onConfirm(): unknown;
}) {
  const { t } = useTranslation();
  const blocked = blockedReason !== undefined;
  return (
    <Popconfirm
      title={confirm}
      description={description}
      okText={t('common.delete')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, 'data-testid': confirmTestId } as ButtonProps}
      disabled={blocked}
      onConfirm={onConfirm}
    >
      <Tooltip title={blockedReason ?? t('common.delete')}>
        <Button
          type="text"
          danger
          size={size}
          icon={<DeleteOutlined />}
          aria-label={t('common.delete')}
          disabled={blocked}
          data-testid={testId}
        />
      </Tooltip>
    </Popconfirm>
  );
}
