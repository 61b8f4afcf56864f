import {
  DEVICE_NAME_MAX,
  type DeviceView,
  UpdateDeviceBody,
  validateDeviceName,
  validateRemark,
} from '@beacon/protocol';
import { type ButtonProps, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { parseForm } from '../../forms/zodForm.ts';

export function EditModal({
  open,
  device,
  onClose,
  onSave,
}: {
  open: boolean;
  device: DeviceView;
  onClose(): void;
  onSave(values: { name: string; remark: string }): Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; remark: string }>();
  return (
    <Modal
      open={open}
      title={t('devices.rename')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'device-edit-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: device.name, remark: device.remark || device.name }}
        onFinish={(values) => {
          // The rename is checked with the schema the server validates it with (UpdateDeviceBody).
          if (parseForm(UpdateDeviceBody, values, form)) return onSave(values);
        }}
      >
        <Form.Item
          name="name"
          label={t('devices.col.name')}
          rules={[
            { required: true, whitespace: true, message: t('devices.nameRequired') },
            checkRule(validateDeviceName, true),
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX} data-testid="device-edit-name" />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('devices.remark')}
          rules={[
            { required: true, whitespace: true, message: t('devices.remarkRequired') },
            checkRule(validateRemark, true),
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX} data-testid="device-edit-remark" />
        </Form.Item>
        <EnterSubmits />
      </Form>
    </Modal>
  );
}
