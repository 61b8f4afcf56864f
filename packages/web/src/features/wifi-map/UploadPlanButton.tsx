import { UploadOutlined } from '@ant-design/icons';
import {
  isPlanImageFailure,
  PLAN_IMAGE_LIMITS,
  readPlanImageHeader,
  validatePlanSize,
} from '@beacon/protocol';
import { Button, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { wifiMapApi } from './api.ts';

/**
 * Uploads a floor plan. The browser applies the server's rules first, from the same protocol
 * checks: at most 10 MB, a PNG or JPEG by its magic bytes, its header's size within the limits —
 * read from the file's first bytes, before anything decodes the image.
 */
export function UploadPlanButton({
  projectId,
  onUploaded,
  primary = false,
}: {
  projectId: number;
  onUploaded(planId: number): void;
  primary?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    const size = validatePlanSize(file.size);
    if (size) return showError(size.message);
    const head = new Uint8Array(await file.slice(0, PLAN_IMAGE_LIMITS.HEAD_BYTES).arrayBuffer());
    const header = readPlanImageHeader(head);
    if (isPlanImageFailure(header)) return showError(header.message);
    setBusy(true);
    try {
      const plan = await wifiMapApi.upload(projectId, file);
      showSuccess(t('wifiMap.upload.done', { name: plan.name }));
      onUploaded(plan.id);
    } catch (e) {
      showError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Upload
      accept=".png,.jpg,.jpeg,image/png,image/jpeg"
      showUploadList={false}
      beforeUpload={(file) => {
        void send(file);
        return false;
      }}
    >
      <Button
        icon={<UploadOutlined />}
        loading={busy}
        type={primary ? 'primary' : 'default'}
        data-testid="wifi-map-upload"
      >
        {t('wifiMap.upload.button')}
      </Button>
    </Upload>
  );
}
