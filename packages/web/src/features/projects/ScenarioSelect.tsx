import { PlusOutlined } from '@ant-design/icons';
import { BUILTIN_SCENARIOS, ScenarioBody } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';

export const SCENARIOS_KEY = ['account', 'scenarios'] as const;

export function useScenarioLabel() {
  const { t } = useTranslation();
  return (scenario: string) =>
    (BUILTIN_SCENARIOS as readonly string[]).includes(scenario) ? t(`scenario.${scenario}`) : scenario;
}

/** Built-in scenarios (labels from i18n) plus the account's custom ones, with an inline "add". */
export function ScenarioSelect({
  value,
  onChange,
  id,
  disabled,
}: {
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const custom = useQuery({ queryKey: SCENARIOS_KEY, queryFn: api.scenarios, meta: { silent: true } });
  const add = useMutation({
    mutationFn: api.addScenario,
    onSuccess: (created) => {
      queryClient.invalidateQueries({ queryKey: SCENARIOS_KEY });
      setName('');
      showSuccess(t('scenario.added'));
      onChange?.(created.name);
    },
    onError: (e) => showError(errorText(e)),
  });
  const submit = () => {
    const parsed = ScenarioBody.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setNameError(null);
    add.mutate(parsed.data);
  };
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled}
      data-testid="project-form-scenario"
      placeholder={t('project.scenario')}
      showSearch={{ optionFilterProp: 'label' }}
      options={[
        {
          label: t('scenario.builtin'),
          options: BUILTIN_SCENARIOS.map((s) => ({ value: s, label: t(`scenario.${s}`) })),
        },
        ...(custom.data && custom.data.length > 0
          ? [
              {
                label: t('scenario.custom'),
                options: custom.data.map((s) => ({ value: s.name, label: s.name })),
              },
            ]
          : []),
      ]}
      popupRender={(menu) => (
        <>
          {menu}
          <Divider style={{ margin: '8px 0' }} />
          <div style={{ padding: '0 8px 4px' }}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                placeholder={t('scenario.customPlaceholder')}
                value={name}
                status={nameError ? 'error' : undefined}
                data-testid="scenario-new-name"
                onChange={(e) => setName(e.target.value)}
                onKeyDown={(e) => {
                  e.stopPropagation();
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    submit();
                  }
                }}
              />
              <Button
                icon={<PlusOutlined />}
                onClick={submit}
                loading={add.isPending}
                data-testid="scenario-add"
              >
                {t('scenario.addCustom')}
              </Button>
            </Space.Compact>
            {nameError ? (
              <div style={{ color: '#ff4d4f', fontSize: 12, marginTop: 4 }}>{nameError}</div>
            ) : null}
          </div>
        </>
      )}
    />
  );
}
