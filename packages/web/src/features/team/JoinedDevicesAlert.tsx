import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../util/format.ts';
import { JOINED_KEY, teamApi } from './api.ts';

const SHOWN = 8;

/**
 * The device-joining alert (SPEC.md §2): devices of the account's projects that came online for the
 * first time since the alert was last dismissed. Dismissing it is kept on the server, so it is shown
 * once, in one browser or another. A banner above the project overview, not a dialog: it never stands
 * in the way of what the user came to do.
 */
export function JoinedDevicesAlert() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const joined = useQuery({
    queryKey: JOINED_KEY,
    queryFn: teamApi.joined,
    refetchInterval: 60_000,
    meta: { silent: true },
  });
  const items = joined.data?.items ?? [];
  const seen = useMutation({
    mutationFn: () => teamApi.seen(items[0].firstSeenAt),
    onSettled: () => queryClient.invalidateQueries({ queryKey: JOINED_KEY }),
  });
  if (items.length === 0) return null;
  return (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="joined-alert"
      title={t('joined.title')}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>
            {t('joined.intro', { count: items.length })}
          </Typography.Paragraph>
          <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="joined-list">
            {items.slice(0, SHOWN).map((d) => (
              <li key={d.sn}>
                {`${d.name || d.sn} (${d.model}) · ${d.projectName} · ${formatDateTime(d.firstSeenAt)}`}
              </li>
            ))}
          </ul>
          {items.length > SHOWN ? (
            <Typography.Text type="secondary">
              {t('joined.more', { count: items.length - SHOWN })}
            </Typography.Text>
          ) : null}
        </>
      }
      action={
        <Button
          size="small"
          type="primary"
          loading={seen.isPending}
          onClick={() => seen.mutate()}
          data-testid="joined-ok"
        >
          {t('joined.ok')}
        </Button>
      }
    />
  );
}
