import { UploadOutlined } from '@ant-design/icons';
import { BACKUP_FILE_EXTENSIONS, LIMITS, validateFileFormat } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showError, showSuccess } from '../../state/feedback.ts';
import { backupApi, backupsKey } from './api.ts';
import { useOverwriteConfirm } from './useOverwriteConfirm.tsx';

/**
 * Uploads a backup file. The name and size are checked here with the protocol's rules before
 * sending; the server checks the content whole before it stores anything.
 */
export function UploadBackupButton({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const withConfirm = useOverwriteConfirm();
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    if (validateFileFormat(file.name, BACKUP_FILE_EXTENSIONS)) return showError(t('backup.upload.format'));
    if (file.size > LIMITS.BACKUP_FILE_MAX_BYTES) return showError(t('backup.upload.tooLarge'));
    setBusy(true);
    const done = await withConfirm((confirm) => backupApi.upload(projectId, file, confirm));
    setBusy(false);
    if (done) showSuccess(t('backup.upload.done'));
    void queryClient.invalidateQueries({ queryKey: backupsKey(projectId) });
  };

  return (
    <Upload
      accept=".json,application/json"
      showUploadList={false}
      beforeUpload={(file) => {
        void send(file);
        return false;
      }}
    >
      <Tooltip title={t('backup.upload.help')}>
        <Button icon={<UploadOutlined />} loading={busy} data-testid="backup-upload">
          {t('backup.upload.button')}
        </Button>
      </Tooltip>
    </Upload>
  );
}
