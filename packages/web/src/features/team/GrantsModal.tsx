import { ProjectRight, SubordinateLevel, type SubordinateView } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, List, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { TEAM_KEY, teamApi } from './api.ts';

/** The projects given to one subordinate account: give one of your own, change its right, take it back. */
export function GrantsModal({
  subordinate,
  onClose,
}: {
  subordinate: SubordinateView | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [projectId, setProjectId] = useState<number | null>(null);
  const visitor = subordinate?.level === SubordinateLevel.GUEST;
  const [permission, setPermission] = useState<'r' | 'rw'>(ProjectRight.READ);
  const own = useQuery({
    queryKey: ['projects', 'own-for-grants'],
    queryFn: () => api.projects({ pageSize: 200, sort: 'name', order: 'asc' }),
    enabled: subordinate !== null,
  });
  const options = (own.data?.items ?? [])
    .filter((p) => p.property === 'own')
    .map((p) => ({ value: p.id, label: p.name }));
  const done = () => queryClient.invalidateQueries({ queryKey: TEAM_KEY });
  const grant = useMutation({
    mutationFn: () => teamApi.grant(subordinate?.id ?? 0, { projectId: projectId ?? 0, permission }),
    onSuccess: () => {
      setProjectId(null);
      return done();
    },
    onError: (e) => reportFailure(e),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => teamApi.revoke(subordinate?.id ?? 0, id),
    onSuccess: done,
    onError: (e) => reportFailure(e),
  });
  const current = queryClient
    .getQueryData<SubordinateView[]>(TEAM_KEY)
    ?.find((s) => s.id === subordinate?.id);
  const grants = current?.projects ?? subordinate?.projects ?? [];
  return (
    <Modal
      open={subordinate !== null}
      title={t('team.projectsOf', { name: subordinate?.nick || subordinate?.account })}
      onCancel={onClose}
      footer={
        <Button onClick={onClose} data-testid="grants-close">
          {t('common.close')}
        </Button>
      }
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('team.project')}>
          <Select
            value={projectId}
            onChange={setProjectId}
            options={options}
            loading={own.isLoading}
            aria-label={t('team.project')}
            data-testid="grant-project"
            placeholder={t('team.chooseProject')}
          />
        </Form.Item>
        <Form.Item label={t('team.permission')} extra={visitor ? t('team.visitorReadOnly') : undefined}>
          <Space wrap>
            <Select
              value={visitor ? ProjectRight.READ : permission}
              onChange={setPermission}
              disabled={visitor}
              aria-label={t('team.permission')}
              data-testid="grant-permission"
              style={{ minWidth: 160 }}
              options={[
                { value: ProjectRight.READ, label: t('team.right.r') },
                { value: ProjectRight.READ_WRITE, label: t('team.right.rw') },
              ]}
            />
            <Button
              type="primary"
              disabled={projectId === null}
              loading={grant.isPending}
              onClick={() => grant.mutate()}
              data-testid="grant-submit"
            >
              {t('team.give')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{t('team.given')}</Typography.Title>
      <List
        size="small"
        bordered
        dataSource={grants}
        locale={{ emptyText: t('team.noProjects') }}
        data-testid="grant-list"
        renderItem={(g) => (
          <List.Item
            actions={[
              <DeleteButton
                key="revoke"
                size="small"
                confirm={t('team.revokeConfirm', { name: g.name })}
                testId={`grant-revoke-${g.projectId}`}
                onConfirm={() => revoke.mutate(g.projectId)}
              />,
            ]}
          >
            <Space>
              <span>{g.name}</span>
              <Tag color={g.permission === 'rw' ? 'blue' : undefined}>{t(`team.right.${g.permission}`)}</Tag>
            </Space>
          </List.Item>
        )}
      />
    </Modal>
  );
}
