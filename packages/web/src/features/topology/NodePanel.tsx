import { TopoDeviceType, type TopologyNodeView } from '@beacon/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Button, Card, Descriptions, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../state/feedback.ts';
import { topologyApi, topologyKey } from './api.ts';

const CODES = Object.values(TopoDeviceType);

/** The selected node: what is known of it, and its device type (SPEC.md §3 codes), kept per project. */
export function NodePanel({
  projectId,
  node,
  writable,
  onOpen,
  onClose,
}: {
  projectId: number;
  node: TopologyNodeView;
  writable: boolean;
  onOpen(sn: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const retypable = node.sn !== null || node.mac !== null;
  const save = useMutation({
    mutationFn: (code: number) => topologyApi.setType(projectId, { node: node.id, code }),
    onSuccess: () => {
      void message.success(t('topology.panel.typeSaved'));
      void queryClient.invalidateQueries({ queryKey: topologyKey(projectId) });
    },
    onError: (err) => void message.error(errorText(err)),
  });
  const items = [
    { key: 'mac', label: t('topology.panel.mac'), children: node.mac ?? '—' },
    { key: 'ip', label: t('topology.panel.ip'), children: node.ip ?? '—' },
    { key: 'model', label: t('topology.panel.model'), children: node.model ?? '—' },
    { key: 'ports', label: t('topology.panel.ports'), children: node.ports.join(', ') || '—' },
    { key: 'vlans', label: t('topology.panel.vlans'), children: node.vlans.join(', ') || '—' },
    ...(node.role
      ? [{ key: 'role', label: t('topology.panel.role'), children: t(`topology.role.${node.role}`) }]
      : []),
  ];
  return (
    <Card
      size="small"
      data-testid="topology-node-panel"
      style={{ marginTop: 12 }}
      title={
        <Typography.Text strong>
          {t('topology.panel.title')}: {node.name}
        </Typography.Text>
      }
      extra={
        <Button size="small" onClick={onClose}>
          {t('topology.panel.close')}
        </Button>
      }
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} items={items} />
      {retypable && (
        <Space wrap style={{ marginTop: 8 }}>
          <label htmlFor="topology-type-select">{t('topology.panel.type')}</label>
          <Select
            id="topology-type-select"
            data-testid="topology-type"
            style={{ width: 180 }}
            disabled={!writable || save.isPending}
            value={node.typeCode ?? TopoDeviceType.NO_CHANGE}
            onChange={(code: number) => save.mutate(code)}
            options={CODES.map((c) => ({ value: c, label: t(`topology.code.${c}`) }))}
          />
          {node.sn && (
            <Button data-testid="topology-open-device" onClick={() => onOpen(node.sn!)}>
              {t('topology.panel.open')}
            </Button>
          )}
        </Space>
      )}
    </Card>
  );
}
