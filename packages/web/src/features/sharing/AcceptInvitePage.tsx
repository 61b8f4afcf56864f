import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { selectProject } from '../../session/currentProject.ts';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { formatDateTime } from '../../util/format.ts';
import { sharingApi } from './api.ts';

/** /invite/:code — what the invitation offers, and accepting it. */
export function AcceptInvitePage() {
  const { t } = useTranslation();
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit();
  const preview = useQuery({
    queryKey: ['invite', code],
    queryFn: () => sharingApi.previewInvite(code),
    retry: false,
    // The page shows why the code does not work; no toast on top.
    meta: { silent: true },
  });

  const accept = () =>
    run(async () => {
      const { projectId } = await withLoadState('saving', () => sharingApi.acceptInvite(code));
      showSuccess(t('sharing.accepted'));
      queryClient.invalidateQueries({ queryKey: ['projects'] });
      selectProject(await api.project(projectId));
      navigate('/overview/preview');
    });

  const inv = preview.data;
  return (
    <>
      <PageTitle title={t('sharing.acceptTitle')} />
      <Card>
        {preview.isLoading ? (
          <Skeleton active />
        ) : preview.isError || !inv ? (
          <Result
            status="warning"
            title={errorText(preview.error)}
            data-testid="invite-error"
            extra={<Button onClick={() => navigate('/overview/list')}>{t('project.goToList')}</Button>}
          />
        ) : (
          <>
            <Descriptions column={1} size="small" data-testid="invite-preview">
              <Descriptions.Item label={t('project.name')}>{inv.projectName}</Descriptions.Item>
              <Descriptions.Item label={t('project.owner')}>{inv.ownerAccount}</Descriptions.Item>
              <Descriptions.Item label={t('sharing.permission')}>
                {t(inv.permission === 'rw' ? 'sharing.permissionRw' : 'sharing.permissionR')}
              </Descriptions.Item>
              <Descriptions.Item label={t('sharing.validity')}>
                {inv.validity === 'permanent'
                  ? t('sharing.permanent')
                  : t('sharing.hoursValue', { count: inv.hours ?? 0 })}
              </Descriptions.Item>
              <Descriptions.Item label={t('sharing.inviteExpires')}>
                {formatDateTime(inv.expiresAt)}
              </Descriptions.Item>
            </Descriptions>
            <Button
              type="primary"
              loading={busy}
              onClick={accept}
              style={{ marginTop: 16 }}
              data-testid="invite-accept"
            >
              {t('sharing.accept')}
            </Button>
          </>
        )}
      </Card>
    </>
  );
}
