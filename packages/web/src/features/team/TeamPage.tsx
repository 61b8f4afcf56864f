import { PlusOutlined } from '@ant-design/icons';
import type { SubordinateView } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useSession } from '../../session/session.ts';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { formatDateTime } from '../../util/format.ts';
import { TEAM_KEY, teamApi } from './api.ts';
import { GrantsModal } from './GrantsModal.tsx';
import { SubordinateModal } from './SubordinateModal.tsx';

/**
 * Account management (SPEC.md §2, §6; docs/decisions/0059): the subordinate accounts of this account,
 * their role code, display role and level, and the projects given to them.
 */
export function TeamPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const [adding, setAdding] = useState(false);
  const [granting, setGranting] = useState<SubordinateView | null>(null);
  const isSubordinate = session.data?.account.parentId != null;
  const list = useQuery({ queryKey: TEAM_KEY, queryFn: teamApi.list, enabled: !isSubordinate });
  const resend = useMutation({
    mutationFn: (id: number) => teamApi.resendInvitation(id),
    onSuccess: (s) => {
      showSuccess(t('team.invitationSent', { email: s.email }));
      return queryClient.invalidateQueries({ queryKey: TEAM_KEY });
    },
    onError: (e) => reportFailure(e),
  });
  const remove = useMutation({
    mutationFn: (id: number) => teamApi.remove(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAM_KEY }),
    onError: (e) => reportFailure(e),
  });
  if (isSubordinate) {
    return (
      <>
        <PageTitle title={t('team.title')} />
        <Alert type="info" showIcon title={t('team.subordinateHere')} data-testid="team-subordinate" />
      </>
    );
  }
  return (
    <>
      <PageTitle title={t('team.title')} />
      <Card
        title={t('team.subordinates')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="team-add"
          >
            {t('team.add')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('team.hint')}</Typography.Paragraph>
        {list.isError ? <Alert type="error" showIcon title={errorText(list.error)} /> : null}
        <Table<SubordinateView>
          rowKey="id"
          size="small"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="team-table"
          locale={{ emptyText: t('team.none') }}
          columns={[
            {
              title: t('team.account'),
              key: 'account',
              render: (_: unknown, s) => (
                <Space direction="vertical" size={0}>
                  <span data-testid={`team-row-${s.account}`}>{s.nick}</span>
                  <Typography.Text type="secondary">{s.email}</Typography.Text>
                  {s.passwordSet ? null : (
                    <Tag
                      color={s.invitationExpiresAt ? 'gold' : 'red'}
                      data-testid={`team-invitation-${s.id}`}
                    >
                      {s.invitationExpiresAt
                        ? t('team.invitationPending', { date: formatDateTime(s.invitationExpiresAt) })
                        : t('team.invitationExpired')}
                    </Tag>
                  )}
                </Space>
              ),
            },
            {
              title: t('team.role'),
              dataIndex: 'role',
              key: 'role',
              render: (role: number) => t(`team.roleCode.${role}`),
            },
            {
              title: t('team.displayRole'),
              dataIndex: 'displayRole',
              key: 'displayRole',
              render: (role: string) => (
                <Tag color={role === 'visitor' ? 'default' : 'geekblue'}>
                  {t(`team.displayRoleName.${role}`)}
                </Tag>
              ),
            },
            {
              title: t('team.projects'),
              key: 'projects',
              render: (_: unknown, s) =>
                s.projects.length === 0 ? (
                  <Typography.Text type="secondary">{t('team.noProjects')}</Typography.Text>
                ) : (
                  <Space size={[4, 4]} wrap>
                    {s.projects.map((p) => (
                      <Tag key={p.projectId} color={p.permission === 'rw' ? 'blue' : undefined}>
                        {p.name} · {t(`team.right.${p.permission}`)}
                      </Tag>
                    ))}
                  </Space>
                ),
            },
            {
              key: 'actions',
              render: (_: unknown, s) => (
                <Space>
                  <Button size="small" onClick={() => setGranting(s)} data-testid={`team-projects-${s.id}`}>
                    {t('team.manageProjects')}
                  </Button>
                  {s.passwordSet ? null : (
                    <Button
                      size="small"
                      loading={resend.isPending && resend.variables === s.id}
                      onClick={() => resend.mutate(s.id)}
                      data-testid={`team-resend-${s.id}`}
                    >
                      {t('team.resendInvitation')}
                    </Button>
                  )}
                  <DeleteButton
                    size="small"
                    confirm={t('team.deleteConfirm', { name: s.nick || s.account })}
                    testId={`team-delete-${s.id}`}
                    onConfirm={() => remove.mutate(s.id)}
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <SubordinateModal open={adding} onClose={() => setAdding(false)} />
      <GrantsModal subordinate={granting} onClose={() => setGranting(null)} />
    </>
  );
}
