import { EditOutlined, LinkOutlined, LogoutOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { ProjectProperty, type ShareView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  type ButtonProps,
  Card,
  Empty,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { selectProject, useCurrentProject } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { formatDateTime } from '../../util/format.ts';
import { sharesKey, sharingApi } from './api.ts';
import { InviteModal } from './InviteModal.tsx';
import { ShareFormModal } from './ShareFormModal.tsx';
import { TransferModal } from './TransferModal.tsx';

/** Why the sharing actions are off for this caller (i18n key), or null for the owner. */
function manageBlockReason(p: { isDemo: boolean; right: string; property: string }): string | null {
  if (p.isDemo) return 'project.demoNoWrite';
  if (p.right !== 'rw') return 'project.readOnlyNoWrite';
  if (p.property !== ProjectProperty.OWN) return 'sharing.ownerOnly';
  return null;
}

/** /manage/authority: the project's share records, sharing, invitations, unbind and transfer. */
export function AuthorityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = AntApp.useApp();
  const queryClient = useQueryClient();
  const current = useCurrentProject();
  const [shareOpen, setShareOpen] = useState(false);
  const [editing, setEditing] = useState<ShareView | null>(null);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);

  const project = useQuery({
    queryKey: ['project', current?.id],
    queryFn: () => api.project(current!.id),
    enabled: !!current,
  });
  const shares = useQuery({
    queryKey: sharesKey(current?.id),
    queryFn: () => sharingApi.shares(current!.id),
    enabled: !!current && !!project.data,
  });
  useEffect(() => {
    if (project.data) selectProject(project.data);
  }, [project.data]);

  const p = project.data;
  const blocked = p ? manageBlockReason(p) : 'sharing.loading';
  const isMember = !!p && !p.isDemo && p.property !== ProjectProperty.OWN;

  if (!current) return <NoProject title={t('route.authority')} />;

  const remove = async (share: ShareView) => {
    try {
      await withLoadState('saving', () => sharingApi.deleteShare(current.id, share.accountId));
      showSuccess(t('sharing.deleted'));
      queryClient.invalidateQueries({ queryKey: sharesKey(current.id) });
    } catch (e) {
      showError(errorText(e));
    }
  };

  const cancelTransfer = async () => {
    try {
      await withLoadState('saving', () => sharingApi.cancelTransfer(current.id));
      showSuccess(t('sharing.transferWithdrawn'));
      queryClient.invalidateQueries({ queryKey: sharesKey(current.id) });
    } catch (e) {
      showError(errorText(e));
    }
  };

  const unbind = () =>
    modal.confirm({
      title: t('sharing.unbindConfirmTitle'),
      content: t('sharing.unbindConfirm', { project: p?.name ?? '' }),
      okText: t('sharing.unbind'),
      okButtonProps: { danger: true, 'data-testid': 'unbind-confirm' } as ButtonProps,
      cancelText: t('common.cancel'),
      width: 360,
      onOk: async () => {
        try {
          await withLoadState('saving', () => sharingApi.unbind(current.id));
          showSuccess(t('sharing.unbound'));
          selectProject(null);
          queryClient.invalidateQueries({ queryKey: ['projects'] });
          queryClient.removeQueries({ queryKey: ['project', current.id] });
          navigate('/overview/list');
        } catch (e) {
          showError(errorText(e));
        }
      },
    });

  const tip = blocked ? t(blocked) : undefined;

  return (
    <>
      <PageTitle
        title={t('route.authority')}
        extra={
          <>
            {isMember ? (
              <Button icon={<LogoutOutlined />} danger onClick={unbind} data-testid="unbind">
                {t('sharing.unbind')}
              </Button>
            ) : null}
            <Tooltip title={tip}>
              <Button
                icon={<LinkOutlined />}
                disabled={!!blocked}
                onClick={() => setInviteOpen(true)}
                data-testid="invite-open"
              >
                {t('sharing.invite')}
              </Button>
            </Tooltip>
            <Tooltip title={tip}>
              <Button
                icon={<SwapOutlined />}
                disabled={!!blocked}
                onClick={() => setTransferOpen(true)}
                data-testid="transfer-open"
              >
                {t('sharing.transfer')}
              </Button>
            </Tooltip>
            <Tooltip title={tip}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                disabled={!!blocked}
                onClick={() => setShareOpen(true)}
                data-testid="share-add"
              >
                {t('sharing.share')}
              </Button>
            </Tooltip>
          </>
        }
      />
      {shares.data?.transfer ? (
        <Alert
          type="warning"
          showIcon
          title={t('sharing.transferPending', {
            account: shares.data.transfer.account,
            time: formatDateTime(shares.data.transfer.offeredAt),
          })}
          action={
            <Button size="small" onClick={cancelTransfer} data-testid="transfer-withdraw">
              {t('sharing.transferWithdraw')}
            </Button>
          }
          style={{ marginBottom: 16 }}
          data-testid="transfer-pending"
        />
      ) : null}
      {p && blocked ? (
        <Alert
          type="info"
          showIcon
          title={t(blocked)}
          style={{ marginBottom: 16 }}
          data-testid="sharing-blocked"
        />
      ) : null}
      <Card>
        <Table<ShareView>
          rowKey="accountId"
          loading={project.isLoading || shares.isLoading}
          dataSource={shares.data?.items ?? []}
          pagination={false}
          data-testid="share-table"
          onRow={(s) => ({ 'data-testid': `share-row-${s.accountId}` }) as object}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sharing.none')} />,
          }}
          columns={[
            {
              title: t('sharing.account'),
              key: 'account',
              render: (_: unknown, s) => (
                <Space orientation="vertical" size={0}>
                  <span>{s.account}</span>
                  <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                    {s.nick} · {s.cloudId}
                  </span>
                </Space>
              ),
            },
            { title: t('sharing.role'), key: 'role', render: (_: unknown, s) => t(`role.${s.role}`) },
            {
              title: t('sharing.permission'),
              key: 'permission',
              render: (_: unknown, s) => (
                <Space size={4}>
                  <Tag
                    color={s.permission === 'rw' ? 'blue' : 'default'}
                    data-testid={`share-permission-${s.accountId}`}
                  >
                    {t(s.permission === 'rw' ? 'sharing.permissionRw' : 'sharing.permissionR')}
                  </Tag>
                  {s.accepted ? null : (
                    <Tag color="orange" data-testid={`share-pending-${s.accountId}`}>
                      {t('sharing.pending')}
                    </Tag>
                  )}
                  {s.via === 'invite' ? <Tag>{t('sharing.viaInvite')}</Tag> : null}
                </Space>
              ),
            },
            {
              title: t('sharing.validity'),
              key: 'validity',
              render: (_: unknown, s) =>
                s.validity === 'permanent' ? (
                  t('sharing.permanent')
                ) : (
                  <Tooltip title={t('sharing.until', { time: formatDateTime(s.expiresAt) })}>
                    <span>{t('sharing.hoursValue', { count: s.hours ?? 0 })}</span>
                  </Tooltip>
                ),
            },
            {
              title: t('sharing.sharedAt'),
              key: 'sharedAt',
              render: (_: unknown, s) => formatDateTime(s.sharedAt),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              width: 120,
              render: (_: unknown, s) => (
                <Space size={0}>
                  <Tooltip title={tip ?? t('sharing.change')}>
                    <Button
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={t('sharing.change')}
                      disabled={!!blocked}
                      onClick={() => setEditing(s)}
                      data-testid={`share-edit-${s.accountId}`}
                    />
                  </Tooltip>
                  <DeleteButton
                    confirm={t(s.accepted ? 'sharing.deleteConfirm' : 'sharing.withdrawConfirm', {
                      account: s.account,
                    })}
                    confirmTestId="share-delete-confirm"
                    blockedReason={tip}
                    testId={`share-delete-${s.accountId}`}
                    onConfirm={() => remove(s)}
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <ShareFormModal
        open={shareOpen}
        projectId={current.id}
        share={null}
        onClose={() => setShareOpen(false)}
      />
      <ShareFormModal
        open={editing !== null}
        projectId={current.id}
        share={editing}
        onClose={() => setEditing(null)}
      />
      <InviteModal open={inviteOpen} projectId={current.id} onClose={() => setInviteOpen(false)} />
      <TransferModal
        open={transferOpen}
        projectId={current.id}
        projectName={p?.name ?? ''}
        onClose={() => setTransferOpen(false)}
      />
    </>
  );
}
