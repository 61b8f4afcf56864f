import { DeleteOutlined } from '@ant-design/icons';
import {
  type FloorPlanView,
  MAP_BANDS,
  type MapBand,
  type PlanLayout,
  validateAsciiName,
  WALL_MATERIALS,
  type WallMaterial,
} from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Popconfirm,
  Row,
  Segmented,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { errorText, showError } from '../../state/feedback.ts';
import { ApList } from './ApList.tsx';
import { wifiMapApi, wifiMapKey } from './api.ts';
import { Legend } from './Legend.tsx';
import { type Layer, PlanCanvas, type Tool } from './PlanCanvas.tsx';
import { ScaleModal } from './ScaleModal.tsx';
import { UploadPlanButton } from './UploadPlanButton.tsx';
import { coverageInput, useCoverage } from './useCoverage.ts';
import './wifi-map.css';

const layoutOf = (p: FloorPlanView): PlanLayout => ({
  name: p.name,
  scale: p.scale,
  walls: p.walls,
  aps: p.aps,
});

/**
 * /manage/visualization/td (Beta): floor plans per project, the scale, walls and AP positions drawn
 * on them, and the predicted coverage of each band with the co-channel overlap, computed in a Web
 * Worker from what the APs report (docs/decisions/0052-0053). Read-only members and demo projects
 * see it all but edit nothing (the server refuses them too).
 */
export function WifiMapPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const editable = canWrite(current);
  const queryClient = useQueryClient();
  const [planId, setPlanId] = useState<number | null>(null);
  const [tool, setTool] = useState<Tool>('move');
  const [material, setMaterial] = useState<WallMaterial>('drywall');
  const [band, setBand] = useState<MapBand>('2.4G');
  const [layer, setLayer] = useState<Layer>('coverage');
  const [selectedWall, setSelectedWall] = useState<number | null>(null);
  const [scaleLine, setScaleLine] = useState<{ x1: number; y1: number; x2: number; y2: number } | null>(null);

  const map = useQuery({
    queryKey: wifiMapKey(projectId),
    queryFn: () => wifiMapApi.get(projectId!),
    enabled: projectId !== undefined,
    // What the APs report (channel, power, clients) changes as they run.
    refetchInterval: 15_000,
  });
  const plans = map.data?.plans ?? [];
  const plan = plans.find((p) => p.id === planId) ?? plans[0] ?? null;
  // The editor's copy of the plan, until the plan changes or a newer save of it is read.
  const planKey = plan ? `${plan.id}:${plan.updatedAt}` : '';
  const [edited, setEdited] = useState<{ key: string; layout: PlanLayout } | null>(null);
  const draft = edited && edited.key === planKey ? edited.layout : plan ? layoutOf(plan) : null;
  const setDraft = (layout: PlanLayout | null) => setEdited(layout ? { key: planKey, layout } : null);

  const save = useMutation({
    mutationFn: (layout: PlanLayout) => wifiMapApi.save(projectId!, plan!.id, layout),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: wifiMapKey(projectId) }),
    onError: (e) => {
      showError(errorText(e));
      if (plan) setDraft(layoutOf(plan));
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => wifiMapApi.remove(projectId!, id),
    onSuccess: () => {
      setPlanId(null);
      return queryClient.invalidateQueries({ queryKey: wifiMapKey(projectId) });
    },
    onError: (e) => showError(errorText(e)),
  });
  const change = (layout: PlanLayout) => {
    setDraft(layout);
    save.mutate(layout);
  };

  const aps = map.data?.aps ?? [];
  const input = useMemo(
    () => (plan && draft ? coverageInput(plan, draft, aps, band) : null),
    [plan, draft, aps, band],
  );
  const coverage = useCoverage(input);

  if (!current || projectId === undefined) return <NoProject title={t('route.wifiMap')} />;
  const title = (
    <PageTitle
      title={t('route.wifiMap')}
      extra={
        <Space wrap>
          <Tag color="purple">{t('routeEmpty.beta')}</Tag>
          {plans.length > 0 ? (
            <Select
              aria-label={t('wifiMap.floor')}
              data-testid="wifi-map-floor"
              value={plan?.id}
              onChange={(id) => {
                setPlanId(id);
                setSelectedWall(null);
              }}
              options={plans.map((p) => ({ value: p.id, label: p.name }))}
              style={{ minWidth: 140 }}
            />
          ) : null}
          {editable && plans.length > 0 && plans.length < (map.data?.maxPlans ?? 0) ? (
            <UploadPlanButton projectId={projectId} onUploaded={(id) => setPlanId(id)} />
          ) : null}
        </Space>
      }
    />
  );

  if (map.isLoading || !map.data) return title;
  if (!plan || !draft) {
    return (
      <div data-testid="wifi-map-page">
        {title}
        <Card>
          <Empty description={t(editable ? 'wifiMap.empty.editable' : 'wifiMap.empty.readOnly')}>
            {editable ? (
              <UploadPlanButton projectId={projectId} onUploaded={(id) => setPlanId(id)} primary />
            ) : null}
          </Empty>
        </Card>
      </div>
    );
  }

  const placedHere = new Set(draft.aps.map((a) => a.sn));
  const placeAtCentre = (sn: string) =>
    change({
      ...draft,
      aps: [...draft.aps, { sn, x: Math.round(plan.width / 2), y: Math.round(plan.height / 2) }],
    });
  const rename = (name: string) => {
    const failure = validateAsciiName(name.trim(), t('wifiMap.floor'), 32);
    if (failure) return showError(failure.message);
    change({ ...draft, name: name.trim() });
  };

  return (
    <div data-testid="wifi-map-page">
      {title}
      {!editable ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('wifiMap.readOnly')}
          data-testid="wifi-map-read-only"
        />
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={6}>
          <Card title={t('wifiMap.aps.title')} size="small">
            {editable ? (
              <Typography.Paragraph type="secondary">{t('wifiMap.aps.help')}</Typography.Paragraph>
            ) : null}
            <ApList
              aps={aps}
              plans={plans}
              plan={plan}
              placedHere={placedHere}
              editable={editable}
              onPlace={placeAtCentre}
              onRemove={(sn) => change({ ...draft, aps: draft.aps.filter((a) => a.sn !== sn) })}
            />
          </Card>
        </Col>
        <Col xs={24} xl={18}>
          <Card
            size="small"
            title={
              <Typography.Text
                editable={
                  editable ? { onChange: rename, triggerType: ['icon'], tooltip: t('wifiMap.rename') } : false
                }
                data-testid="wifi-map-plan-name"
              >
                {draft.name}
              </Typography.Text>
            }
            extra={
              editable ? (
                <Popconfirm
                  title={t('wifiMap.remove.confirm', { name: plan.name })}
                  okText={t('wifiMap.remove.ok')}
                  onConfirm={() => remove.mutate(plan.id)}
                >
                  <Button danger size="small" icon={<DeleteOutlined />} data-testid="wifi-map-delete-plan">
                    {t('wifiMap.remove.button')}
                  </Button>
                </Popconfirm>
              ) : null
            }
          >
            <Space wrap style={{ marginBottom: 12 }}>
              {editable ? (
                <Segmented<Tool>
                  aria-label={t('wifiMap.tool.label')}
                  data-testid="wifi-map-tool"
                  value={tool}
                  onChange={(v) => {
                    setTool(v);
                    setSelectedWall(null);
                  }}
                  options={[
                    { value: 'move', label: t('wifiMap.tool.move') },
                    { value: 'scale', label: t('wifiMap.tool.scale') },
                    { value: 'wall', label: t('wifiMap.tool.wall') },
                  ]}
                />
              ) : null}
              {editable && tool === 'wall' ? (
                <Select<WallMaterial>
                  aria-label={t('wifiMap.material.label')}
                  data-testid="wifi-map-material"
                  value={material}
                  onChange={setMaterial}
                  style={{ minWidth: 120 }}
                  options={WALL_MATERIALS.map((m) => ({ value: m, label: t(`wifiMap.material.${m}`) }))}
                />
              ) : null}
              {editable && selectedWall !== null ? (
                <Button
                  danger
                  data-testid="wifi-map-delete-wall"
                  onClick={() => {
                    change({ ...draft, walls: draft.walls.filter((_, i) => i !== selectedWall) });
                    setSelectedWall(null);
                  }}
                >
                  {t('wifiMap.deleteWall')}
                </Button>
              ) : null}
              <Segmented<MapBand>
                aria-label={t('wifiMap.band')}
                data-testid="wifi-map-band"
                value={band}
                onChange={setBand}
                options={MAP_BANDS.map((b) => ({ value: b, label: t(`wifiMap.bands.${b}`) }))}
              />
              <Segmented<Layer>
                aria-label={t('wifiMap.layer.label')}
                data-testid="wifi-map-layer"
                value={layer}
                onChange={setLayer}
                options={[
                  { value: 'coverage', label: t('wifiMap.layer.coverage') },
                  { value: 'overlap', label: t('wifiMap.layer.overlap') },
                  { value: 'none', label: t('wifiMap.layer.none') },
                ]}
              />
            </Space>
            {!draft.scale ? (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                message={t(editable ? 'wifiMap.noScale.editable' : 'wifiMap.noScale.readOnly')}
                data-testid="wifi-map-no-scale"
              />
            ) : null}
            {!plan.ratioRecommended && editable ? (
              <Typography.Paragraph type="secondary">{t('wifiMap.ratioHint')}</Typography.Paragraph>
            ) : null}
            <PlanCanvas
              plan={plan}
              layout={draft}
              aps={aps}
              editable={editable}
              tool={tool}
              material={material}
              layer={layer}
              coverage={coverage}
              selectedWall={selectedWall}
              onSelectWall={setSelectedWall}
              onChange={change}
              onScaleLine={setScaleLine}
            />
            <Space direction="vertical" style={{ marginTop: 12, width: '100%' }}>
              <Legend layer={layer} />
              {coverage && draft.scale ? (
                <Typography.Text
                  type="secondary"
                  data-testid="wifi-map-computed"
                  data-ms={coverage.ms.toFixed(1)}
                >
                  {t('wifiMap.computed', {
                    ms: Math.max(1, Math.round(coverage.ms)),
                    cell: coverage.grid.cellM.toFixed(2),
                    radios: input?.radios.length ?? 0,
                  })}
                </Typography.Text>
              ) : null}
              <Typography.Text type="secondary">{t('wifiMap.model')}</Typography.Text>
            </Space>
          </Card>
        </Col>
      </Row>
      <ScaleModal
        open={scaleLine !== null}
        pixels={scaleLine ? Math.hypot(scaleLine.x2 - scaleLine.x1, scaleLine.y2 - scaleLine.y1) : 0}
        onCancel={() => setScaleLine(null)}
        onSubmit={(metres) => {
          if (scaleLine) change({ ...draft, scale: { ...scaleLine, metres } });
          setScaleLine(null);
          setTool('move');
        }}
      />
    </div>
  );
}
