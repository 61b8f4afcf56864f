import { WIFI_MAP_LIMITS } from '@beacon/protocol';
import { Form, InputNumber, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** After a line is drawn on the plan: its real length in metres, which sets the plan's scale. */
export function ScaleModal({
  open,
  pixels,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  pixels: number;
  onCancel(): void;
  onSubmit(metres: number): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ metres: number }>();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  return (
    <Modal
      open={open}
      title={t('wifiMap.scale.title')}
      okText={t('wifiMap.scale.ok')}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'wifi-map-scale-ok' } as Record<string, string>}
      destroyOnHidden
    >
      <p>{t('wifiMap.scale.help', { pixels: Math.round(pixels) })}</p>
      <Form form={form} layout="vertical" onFinish={(v) => onSubmit(v.metres)}>
        <Form.Item
          name="metres"
          label={t('wifiMap.scale.metres')}
          rules={[
            { required: true, message: t('wifiMap.scale.required') },
            {
              type: 'number',
              min: WIFI_MAP_LIMITS.SCALE_MIN_M,
              max: WIFI_MAP_LIMITS.SCALE_MAX_M,
              message: t('wifiMap.scale.range', {
                min: WIFI_MAP_LIMITS.SCALE_MIN_M,
                max: WIFI_MAP_LIMITS.SCALE_MAX_M,
              }),
            },
          ]}
        >
          <InputNumber
            autoFocus
            style={{ width: '100%' }}
            addonAfter="m"
            data-testid="wifi-map-scale-metres"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
