import { UploadOutlined } from '@ant-design/icons';
import {
  type DeviceView,
  type MaintenanceAction,
  modelInfo,
  validateClientMac,
  validateDevicePassword,
} from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  type ButtonProps,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { showError } from '../../state/feedback.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { devicesApi, listByModel } from './api.ts';
import { scheduleParams } from './rules.ts';
import { ScheduleFields } from './ScheduleFields.tsx';

/** Actions that open a form for their parameters. */
export type FormAction = Extract<
  MaintenanceAction,
  | 'upgrade'
  | 'password'
  | 'reboot-schedule'
  | 'rate-limit'
  | 'poe-reboot'
  | 'copy-config'
  | 'cpe-mode'
  | 'locate'
>;

export function ActionFormModal({
  action,
  device,
  available,
  projectId,
  onClose,
  onSubmit,
}: {
  action: FormAction | null;
  device: DeviceView;
  available: string[];
  projectId: number;
  onClose(): void;
  onSubmit(action: MaintenanceAction, params: Record<string, unknown>): Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { busy: uploading, run } = useFormSubmit();
  const [image, setImage] = useState<{ id: number; version: string; fileName: string } | null>(null);
  const { zone } = useProjectTime(projectId);
  // Copy configuration: every other device of the same model in the project, not only this page.
  const sameModel = useQuery({
    queryKey: ['devices', projectId, 'model', device.model],
    queryFn: () => listByModel(projectId, device.model),
    enabled: action === 'copy-config',
  });
  const targets = (sameModel.data ?? []).filter((x) => x.sn !== device.sn);
  const info = modelInfo(device.model);
  const poePorts = info?.ports.filter((p) => p.poe).map((p) => p.id) ?? [];

  const submit = async () => {
    if (!action) return;
    // A failed rule shows on its field; nothing awaits this, so it must not reject.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    switch (action) {
      case 'upgrade':
        return onSubmit('upgrade', image ? { firmwareId: image.id } : { version: v.version });
      case 'password':
        return onSubmit('password', { password: v.password });
      case 'reboot-schedule':
        return onSubmit('reboot-schedule', scheduleParams(v));
      case 'rate-limit':
        return onSubmit('rate-limit', {
          upKbps: v.upKbps,
          downKbps: v.downKbps,
          // With a client, the device limits that client only; without, the whole device.
          ...(v.clientMac?.trim() ? { clientMac: v.clientMac.trim().toUpperCase() } : {}),
        });
      case 'poe-reboot':
        return onSubmit('poe-reboot', { ports: v.ports ?? [] });
      case 'cpe-mode':
        return onSubmit('cpe-mode', { mode: v.mode });
      case 'copy-config':
        return onSubmit('copy-config', { targets: v.targets ?? [] });
      case 'locate':
        return onSubmit('locate', { seconds: v.seconds });
    }
  };

  const uploadImage = async (file: File) => {
    if (!file.name.toLowerCase().endsWith('.bin')) {
      showError(t('devices.firmwareFormat'));
      return;
    }
    if (file.size > 40 * 1024 * 1024) {
      showError(t('devices.firmwareSize'));
      return;
    }
    await run(async () => {
      const fw = await devicesApi.uploadFirmware(projectId, file);
      setImage({ id: fw.id, version: fw.version, fileName: fw.fileName });
    });
  };

  return (
    <Modal
      open={action !== null}
      title={action ? t(`devices.action.${action}`) : ''}
      onCancel={() => {
        setImage(null);
        onClose();
      }}
      onOk={submit}
      okButtonProps={{ 'data-testid': 'action-form-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
        {action === 'upgrade' ? (
          <>
            <p>{t('devices.firmwareCurrent', { version: device.firmware ?? '—' })}</p>
            <Form.Item
              name="version"
              label={t('devices.firmwareVersion')}
              rules={[{ required: !image, message: t('devices.firmwareChoose') }]}
            >
              <Select
                disabled={!!image}
                data-testid="upgrade-version"
                options={available.map((x) => ({ value: x, label: x }))}
                placeholder={available.length ? undefined : t('devices.firmwareLatest')}
              />
            </Form.Item>
            <Upload
              accept=".bin"
              showUploadList={false}
              beforeUpload={(f) => {
                void uploadImage(f);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading} data-testid="upgrade-file">
                {t('devices.firmwareUpload')}
              </Button>
            </Upload>
            {image ? <p data-testid="upgrade-image">{t('devices.firmwareImage', image)}</p> : null}
          </>
        ) : null}
        {action === 'password' ? (
          <>
            <Form.Item
              name="password"
              label={t('devices.password')}
              extra={t('devices.passwordRule')}
              rules={[
                {
                  validator: (_, value: string | undefined) => {
                    const failure = validateDevicePassword(value ?? '');
                    return failure ? Promise.reject(new Error(failure.message)) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input.Password data-testid="device-password" autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('devices.passwordConfirm')}
              dependencies={['password']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('devices.passwordMismatch'))),
                }),
              ]}
            >
              <Input.Password data-testid="device-password-confirm" autoComplete="new-password" />
            </Form.Item>
          </>
        ) : null}
        {action === 'reboot-schedule' ? <ScheduleFields zone={zone} /> : null}
        {action === 'rate-limit' ? (
          <>
            <Form.Item
              name="upKbps"
              label={t('devices.rateUp')}
              initialValue={0}
              rules={[{ required: true }]}
            >
              <InputNumber min={0} max={10_000_000} precision={0} addonAfter="Kbps" data-testid="rate-up" />
            </Form.Item>
            <Form.Item
              name="downKbps"
              label={t('devices.rateDown')}
              initialValue={0}
              rules={[{ required: true }]}
            >
              <InputNumber min={0} max={10_000_000} precision={0} addonAfter="Kbps" data-testid="rate-down" />
            </Form.Item>
            <Form.Item
              name="clientMac"
              label={t('devices.rateClient')}
              rules={[checkRule(validateClientMac, true)]}
            >
              <Input placeholder="AA:BB:CC:DD:EE:FF" data-testid="rate-client" autoComplete="off" />
            </Form.Item>
            <p>{t('devices.rateHelp')}</p>
          </>
        ) : null}
        {action === 'poe-reboot' ? (
          <Form.Item
            name="ports"
            label={t('devices.poePorts')}
            rules={[{ required: true, message: t('devices.poeChoose') }]}
          >
            <Checkbox.Group
              data-testid="poe-ports"
              options={poePorts.map((p) => ({ value: p, label: String(p) }))}
            />
          </Form.Item>
        ) : null}
        {action === 'cpe-mode' ? (
          <Form.Item
            name="mode"
            label={t('devices.cpeMode')}
            initialValue={device.cpeMode === 'client' ? 'ap' : 'client'}
          >
            <Radio.Group
              options={[
                { value: 'ap', label: t('devices.cpe.ap') },
                { value: 'client', label: t('devices.cpe.client') },
              ]}
            />
          </Form.Item>
        ) : null}
        {action === 'copy-config' ? (
          <Form.Item
            name="targets"
            label={t('devices.copyTargets')}
            rules={[{ required: true, message: t('devices.copyChoose') }]}
          >
            <Select
              mode="multiple"
              data-testid="copy-targets"
              loading={sameModel.isFetching}
              showSearch={{ optionFilterProp: 'label' }}
              maxTagCount="responsive"
              options={targets.map((x) => ({ value: x.sn, label: `${x.name} (${x.sn})` }))}
              notFoundContent={
                sameModel.isFetching ? undefined : t('devices.copyNone', { model: device.model })
              }
            />
          </Form.Item>
        ) : null}
        <EnterSubmits />
      </Form>
    </Modal>
  );
}
