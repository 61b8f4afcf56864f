import { CAPABILITIES, DEVICE_TYPES, FrequencyBand, ModelUploadBody } from '@beacon/protocol';
import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { solutionsApi } from './api.ts';

interface Props {
  onClose(added: boolean): void;
}

const INITIAL: ModelUploadBody = {
  model: '',
  brand: '',
  type: 'ap',
  description: '',
  ports: 1,
  poePorts: 0,
  poeBudget: 0,
  bands: [],
  minVlan: 1,
  maxVlan: 4094,
  capabilities: [],
};

/**
 * A manufacturer's new model for the cloud-managed list (SPEC.md §3 server configuration): checked
 * with the protocol's own schema as typed; a model that exists answers "model already exists".
 */
export function ModelUploadModal({ onClose }: Props) {
  const { t } = useTranslation();
  const [value, setValue] = useState<ModelUploadBody>(INITIAL);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const parsed = ModelUploadBody.safeParse(value);
  const issues = new Map(
    parsed.success ? [] : parsed.error.issues.map((i) => [String(i.path[0]), i.message]),
  );
  const set = <K extends keyof ModelUploadBody>(key: K, v: ModelUploadBody[K]) =>
    setValue((old) => ({ ...old, [key]: v }));
  const item = (key: keyof ModelUploadBody) => ({
    label: t(`models.upload.${key}`),
    htmlFor: `model-${key}`,
    validateStatus: issues.has(key) ? ('error' as const) : undefined,
    help: issues.get(key),
  });
  const save = async () => {
    if (!parsed.success) return;
    setSaving(true);
    setFailure(null);
    try {
      await solutionsApi.uploadModel(value);
      showSuccess(t('models.upload.saved', { model: value.model }));
      onClose(true);
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t('models.upload.title')}
      okText={t('models.upload.save')}
      cancelText={t('models.upload.cancel')}
      onOk={save}
      onCancel={() => onClose(false)}
      okButtonProps={
        { disabled: !parsed.success, loading: saving, 'data-testid': 'model-upload-save' } as never
      }
    >
      {failure && (
        <Alert type="error" message={failure} style={{ marginBottom: 16 }} data-testid="model-upload-error" />
      )}
      <Form layout="vertical">
        <Form.Item {...item('model')} required>
          <Input id="model-model" value={value.model} onChange={(e) => set('model', e.target.value)} />
        </Form.Item>
        <Form.Item {...item('brand')} required>
          <Input id="model-brand" value={value.brand} onChange={(e) => set('brand', e.target.value)} />
        </Form.Item>
        <Form.Item {...item('type')}>
          <Select
            id="model-type"
            value={value.type}
            onChange={(v) => set('type', v)}
            options={DEVICE_TYPES.map((d) => ({ value: d, label: d }))}
          />
        </Form.Item>
        <Form.Item {...item('description')}>
          <Input
            id="model-description"
            value={value.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </Form.Item>
        {(['ports', 'poePorts', 'poeBudget', 'minVlan', 'maxVlan'] as const).map((key) => (
          <Form.Item key={key} {...item(key)}>
            <InputNumber
              id={`model-${key}`}
              value={value[key]}
              onChange={(v) => set(key, v ?? 0)}
              style={{ width: '100%' }}
            />
          </Form.Item>
        ))}
        <Form.Item {...item('bands')}>
          <Select
            id="model-bands"
            mode="multiple"
            value={value.bands}
            onChange={(v) => set('bands', v)}
            options={Object.values(FrequencyBand).map((b) => ({ value: b, label: b }))}
          />
        </Form.Item>
        <Form.Item {...item('capabilities')}>
          <Select
            id="model-capabilities"
            mode="multiple"
            value={value.capabilities}
            onChange={(v) => set('capabilities', v)}
            options={CAPABILITIES.map((c) => ({ value: c, label: c }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
