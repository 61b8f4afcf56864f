import type { SolutionSummary } from '@beacon/protocol';
import { SolutionShareBody } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { solutionsApi } from './api.ts';

/** Share a solution read-only with another account; the accounts it is shared with, removable. */
export function ShareModal({ solution, onClose }: { solution: SolutionSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = ['solutions', solution.id, 'shares'];
  const [account, setAccount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const shares = useQuery({ queryKey: key, queryFn: () => solutionsApi.shares(solution.id) });
  const share = useMutation({
    mutationFn: () => solutionsApi.share(solution.id, account),
    onSuccess: () => {
      setAccount('');
      setError(null);
      showSuccess(t('solutions.shared'));
      return queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setError(errorText(e)),
  });
  const unshare = useMutation({
    mutationFn: (accountId: number) => solutionsApi.unshare(solution.id, accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: (e) => reportFailure(e),
  });
  const submit = () => {
    const parsed = SolutionShareBody.safeParse({ account });
    if (!parsed.success) setError(parsed.error.issues[0]?.message ?? null);
    else share.mutate();
  };
  return (
    <Modal open title={t('solutions.shareTitle', { name: solution.name })} onCancel={onClose} footer={null}>
      <Typography.Paragraph type="secondary">{t('solutions.shareHint')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={t('solutions.shareAccount')}
          htmlFor="solution-share-account"
          validateStatus={error ? 'error' : undefined}
          help={error}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Input
              id="solution-share-account"
              value={account}
              onChange={(e) => setAccount(e.target.value)}
              placeholder="name@example.com"
              data-testid="solution-share-account"
            />
            <Button
              type="primary"
              htmlType="submit"
              loading={share.isPending}
              data-testid="solution-share-submit"
            >
              {t('solutions.share')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
      <List
        size="small"
        loading={shares.isLoading}
        dataSource={shares.data ?? []}
        locale={{ emptyText: t('solutions.notShared') }}
        renderItem={(s) => (
          <List.Item
            actions={[
              <Button key="remove" size="small" type="link" onClick={() => unshare.mutate(s.accountId)}>
                {t('solutions.unshare')}
              </Button>,
            ]}
          >
            {s.nick ? `${s.nick} (${s.account})` : s.account}
          </List.Item>
        )}
      />
    </Modal>
  );
}
