import { DownloadOutlined } from '@ant-design/icons';
import { DEVICE_EXPORT_FORMATS } from '@beacon/protocol';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { showError } from '../../state/feedback.ts';
import { saveFile, solutionsApi } from './api.ts';

/** The project's devices' base information (name, model, type, MAC, SN, version, IP, status, project) as xlsx or CSV. */
export function DeviceExportButton({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  return (
    <Dropdown
      menu={{
        items: DEVICE_EXPORT_FORMATS.map((f) => ({ key: f, label: t(`deviceExport.${f}`) })),
        onClick: async ({ key }) => {
          const format = key as (typeof DEVICE_EXPORT_FORMATS)[number];
          const ok = await saveFile(
            solutionsApi.deviceExportUrl(projectId, format),
            `devices-${projectId}.${format}`,
          );
          if (!ok) showError(t('deviceExport.failed'));
        },
      }}
    >
      <Button icon={<DownloadOutlined />} data-testid="devices-export">
        {t('deviceExport.button')}
      </Button>
    </Dropdown>
  );
}
