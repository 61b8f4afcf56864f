import { DownloadOutlined } from '@ant-design/icons';
import { LIMITS, LOG_DOWNLOAD_FORMATS, type LogDownloadFormat } from '@beacon/protocol';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { showError } from '../../state/feedback.ts';
import { storage } from '../../storage/storage.ts';
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
  const save = async (format: LogDownloadFormat) => {
    const url = logsApi.downloadUrl(projectId, kind, filter, format);
    const a = document.createElement('a');
    a.download = '';
    // Web access: the cookie goes with a plain link, and the browser saves the file as it streams.
    // OpenAPI access signs with its token in a header, which a link cannot carry: fetch, then save.
    const token = storage.getAccessType() === 'openapi' ? storage.getToken() : null;
    let blobUrl: string | null = null;
    if (token) {
      try {
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(String(res.status));
        blobUrl = URL.createObjectURL(await res.blob());
        a.download = `${kind}-log-${projectId}.${format}`;
      } catch {
        showError(t('logs.download.failed'));
        return;
      }
    }
    a.href = blobUrl ?? url;
    document.body.append(a);
    a.click();
    a.remove();
    if (blobUrl) setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  };
  return (
    <Dropdown
      menu={{
        items: LOG_DOWNLOAD_FORMATS.map((f) => ({ key: f, label: t(`logs.download.${f}`) })),
        onClick: ({ key }) => void save(key as LogDownloadFormat),
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
