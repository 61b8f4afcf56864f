import { PlusOutlined } from '@ant-design/icons';
import { MAX_CUSTOM_SCENARIOS, ScenarioBody, type ScenarioView } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { SCENARIOS_KEY } from '../projects/ScenarioSelect.tsx';

import { NameForm } from './NameForm.tsx';

export function ScenariosCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: SCENARIOS_KEY, queryFn: api.scenarios });
  const count = list.data?.length ?? 0;
  const remove = useMutation({
    mutationFn: (s: ScenarioView) => api.deleteScenario(s.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCENARIOS_KEY }),
    onError: (e) => reportFailure(e),
  });
  return (
    <Card title={t('account.scenarios')}>
      <Typography.Paragraph type="secondary">
        {t('account.scenariosHint', { count, max: MAX_CUSTOM_SCENARIOS })}
      </Typography.Paragraph>
      <NameForm
        schema={ScenarioBody}
        placeholder={t('account.scenarioName')}
        testIdPrefix="scenario"
        icon={<PlusOutlined />}
        label={t('account.addScenario')}
        disabled={count >= MAX_CUSTOM_SCENARIOS}
        submit={async (body) => {
          await api.addScenario(body);
          queryClient.invalidateQueries({ queryKey: SCENARIOS_KEY });
        }}
      />
      <List
        size="small"
        bordered
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{ emptyText: t('account.noScenarios') }}
        renderItem={(s) => (
          <List.Item
            actions={[
              <DeleteButton
                key="del"
                size="small"
                confirm={t('account.deleteScenarioConfirm', { name: s.name })}
                onConfirm={() => remove.mutate(s)}
              />,
            ]}
          >
            {s.name}
          </List.Item>
        )}
      />
    </Card>
  );
}
