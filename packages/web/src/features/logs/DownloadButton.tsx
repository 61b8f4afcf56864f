import { DownloadOutlined } from '@ant-design/icons';
import { LIMITS, LOG_DOWNLOAD_FORMATS, type LogDownloadFormat } from '@beacon/protocol';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { type LogFilter, type LogKind, logsApi } from './api.ts';

/** CSV or xlsx of the filtered log (the newest LOGS_PER_DOWNLOAD rows), saved as the server streams it. */
export function DownloadButton({
  projectId,
  kind,
  filter,
}: {
  projectId: number;
  kind: LogKind;
  filter: LogFilter;
}) {
  const { t } = useTranslation();
  const save = (format: LogDownloadFormat) => {
    const a = document.createElement('a');
    a.href = logsApi.downloadUrl(projectId, kind, filter, format);
    a.download = '';
    document.body.append(a);
    a.click();
    a.remove();
  };
  return (
    <Dropdown
      menu={{
        items: LOG_DOWNLOAD_FORMATS.map((f) => ({ key: f, label: t(`logs.download.${f}`) })),
        onClick: ({ key }) => save(key as LogDownloadFormat),
      }}
    >
      <Button
        icon={<DownloadOutlined />}
        title={t('logs.download.limit', { count: LIMITS.LOGS_PER_DOWNLOAD })}
        data-testid={`log-download-${kind}`}
      >
        {t('logs.download.button')}
      </Button>
    </Dropdown>
  );
}
