import {
  SOLUTION_INPUT_LIMITS as L,
  modelInfo,
  plannableModels,
  type Recommendation,
  SolutionBody,
  type SolutionInputBody,
  type SolutionView,
} from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Steps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { ScenarioSelect } from '../projects/ScenarioSelect.tsx';
import { SOLUTIONS_KEY, solutionsApi } from './api.ts';
import { SolutionPreview } from './SolutionPreview.tsx';

type Values = SolutionInputBody & { name: string };

const DEFAULTS: Partial<Values> = {
  scenario: 'hotel',
  floors: 1,
  installHeight: 3,
  rooms: 0,
  dormitories: 0,
  classrooms: 0,
  offices: 0,
  wards: 0,
  area: 0,
  clientsPerRoom: 0,
  corridorLength: 0,
  connectedClients: 0,
  broadband: 1000,
  maxBandwidthPerLine: 1000,
  apModel: '',
  gatewayModel: '',
  accessSwitchModel: '',
  coreSwitchModel: '',
};

const NUMBERS: { name: keyof SolutionInputBody; max: number; step?: number }[] = [
  { name: 'rooms', max: L.units },
  { name: 'dormitories', max: L.units },
  { name: 'classrooms', max: L.units },
  { name: 'offices', max: L.units },
  { name: 'wards', max: L.units },
  { name: 'area', max: L.areaM2 },
  { name: 'floors', max: L.floors },
  { name: 'clientsPerRoom', max: L.clientsPerRoom },
  { name: 'corridorLength', max: L.corridorM },
  { name: 'installHeight', max: L.heightMaxM, step: 0.5 },
  { name: 'broadband', max: L.mbps },
  { name: 'maxBandwidthPerLine', max: L.mbps },
  { name: 'connectedClients', max: L.clients },
];

const ROLES = [
  { name: 'apModel', kind: 'ap' },
  { name: 'gatewayModel', kind: 'gateway' },
  { name: 'coreSwitchModel', kind: 'switch' },
  { name: 'accessSwitchModel', kind: 'switch' },
] as const;

/** /solutions/new and /solutions/:id/edit: scenario, inputs, models, then generate and save. */
export function SolutionEditorPage() {
  const { id } = useParams();
  const solutionId = id ? Number(id) : undefined;
  const existing = useQuery({
    queryKey: ['solutions', solutionId],
    queryFn: () => solutionsApi.get(solutionId!),
    enabled: solutionId !== undefined,
  });
  if (solutionId !== undefined && !existing.data) {
    return existing.isError ? (
      <Alert type="error" showIcon title={errorText(existing.error)} />
    ) : (
      <Skeleton active />
    );
  }
  return <SolutionEditor existing={existing.data} />;
}

function SolutionEditor({ existing }: { existing?: SolutionView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [result, setResult] = useState<Recommendation | null>(existing?.recommendation ?? null);
  const [failure, setFailure] = useState<string | null>(null);
  const models = plannableModels();
  const initial: Partial<Values> = existing
    ? { ...existing.input, name: existing.name }
    : { ...DEFAULTS, name: '' };

  const body = (): { name: string; input: SolutionInputBody } => {
    const { name, ...input } = form.getFieldsValue(true) as Values;
    return { name, input: { ...input, overrides: existing?.input.overrides ?? {} } };
  };
  const invalid = (): boolean => {
    const parsed = SolutionBody.safeParse(body());
    if (parsed.success) return false;
    const issue = parsed.error.issues[0];
    const field = issue.path[issue.path.length - 1];
    form.setFields([{ name: field as keyof Values, errors: [issue.message] }]);
    setFailure(issue.message);
    return true;
  };
  const generate = useMutation({
    mutationFn: () => solutionsApi.generate(body().input),
    onSuccess: (r) => {
      setResult(r);
      setFailure(null);
      setStep(3);
    },
    onError: (e) => setFailure(errorText(e)),
  });
  const save = useMutation({
    mutationFn: () => (existing ? solutionsApi.update(existing.id, body()) : solutionsApi.create(body())),
    onSuccess: () => {
      showSuccess(t('common.saved'));
      void queryClient.invalidateQueries({ queryKey: SOLUTIONS_KEY });
      navigate('/solutions');
    },
    onError: (e) => setFailure(errorText(e)),
  });
  const modelOptions = (kind: 'ap' | 'gateway' | 'switch') =>
    models[kind].map((m) => ({ value: m, label: `${m} — ${modelInfo(m)?.description ?? ''}` }));

  return (
    <>
      <PageTitle
        title={existing ? t('solutions.editTitle', { name: existing.name }) : t('solutions.newTitle')}
      />
      <Card>
        <Steps
          current={step}
          size="small"
          responsive
          onChange={(s) => (s < 3 || result ? setStep(s) : undefined)}
          items={[
            { title: t('solutions.steps.scenario') },
            { title: t('solutions.steps.inputs') },
            { title: t('solutions.steps.models') },
            { title: t('solutions.steps.result') },
          ]}
          style={{ marginBottom: 24 }}
        />
        <Form form={form} layout="vertical" initialValues={initial} onValuesChange={() => setFailure(null)}>
          <div hidden={step !== 0}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="name"
                  label={t('solutions.name')}
                  rules={[{ required: true, message: t('solutions.nameRequired') }]}
                >
                  <Input maxLength={32} data-testid="solution-name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="scenario" label={t('solutions.scenario')} htmlFor="solution-scenario">
                  <ScenarioSelect id="solution-scenario" />
                </Form.Item>
              </Col>
            </Row>
          </div>
          <div hidden={step !== 1}>
            <Row gutter={16}>
              {NUMBERS.map((f) => (
                <Col xs={12} md={8} xl={6} key={f.name}>
                  <Form.Item name={f.name} label={t(`solutions.inputs.${f.name}`)}>
                    <InputNumber
                      min={0}
                      max={f.max}
                      step={f.step ?? 1}
                      style={{ width: '100%' }}
                      data-testid={`solution-${f.name}`}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </div>
          <div hidden={step !== 2}>
            <Row gutter={16}>
              {ROLES.map((r) => (
                <Col xs={24} md={12} key={r.name}>
                  <Form.Item name={r.name} label={t(`solutions.models.${r.name}`)}>
                    <Select
                      allowClear
                      placeholder={t('solutions.models.none')}
                      options={modelOptions(r.kind)}
                      data-testid={`solution-${r.name}`}
                      onClear={() => form.setFieldValue(r.name, '')}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </div>
        </Form>
        {failure ? (
          <Alert
            type="error"
            showIcon
            title={failure}
            style={{ marginBottom: 16 }}
            data-testid="solution-error"
          />
        ) : null}
        <Space wrap>
          <Button onClick={() => navigate('/solutions')}>{t('solutions.backToList')}</Button>
          {step > 0 ? <Button onClick={() => setStep(step - 1)}>{t('solutions.previous')}</Button> : null}
          {step < 2 ? (
            <Button type="primary" onClick={() => setStep(step + 1)} data-testid="solution-next">
              {t('solutions.next')}
            </Button>
          ) : null}
          {step === 2 ? (
            <Button
              type="primary"
              loading={generate.isPending}
              onClick={() => (invalid() ? undefined : generate.mutate())}
              data-testid="solution-generate"
            >
              {t('solutions.generate')}
            </Button>
          ) : null}
          {step === 3 ? (
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => (invalid() ? undefined : save.mutate())}
              data-testid="solution-save"
            >
              {t('common.save')}
            </Button>
          ) : null}
        </Space>
      </Card>
      {step === 3 && result ? (
        <div style={{ marginTop: 16 }}>
          <SolutionPreview recommendation={result} />
        </div>
      ) : null}
    </>
  );
}
