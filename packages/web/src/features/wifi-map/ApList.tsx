import type { FloorPlanView, MapApView } from '@beacon/protocol';
import { Badge, Button, Empty, List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  aps: readonly MapApView[];
  plans: readonly FloorPlanView[];
  plan: FloorPlanView;
  /** SNs placed on this plan in the editor now. */
  placedHere: ReadonlySet<string>;
  editable: boolean;
  onPlace(sn: string): void;
  onRemove(sn: string): void;
}

/**
 * The project's APs: what they report (channel and power per radio, clients online) and where they
 * are placed. An AP not on another floor is dragged onto the plan (or placed at its centre with the
 * button, for keyboards and touch screens).
 */
export function ApList({ aps, plans, plan, placedHere, editable, onPlace, onRemove }: Props) {
  const { t } = useTranslation();
  const floorOf = new Map(plans.map((p) => [p.id, p.name]));
  if (aps.length === 0) return <Empty description={t('wifiMap.aps.none')} />;
  return (
    <List
      size="small"
      dataSource={[...aps]}
      data-testid="wifi-map-aps"
      rowKey="sn"
      renderItem={(ap) => {
        const here = placedHere.has(ap.sn);
        const elsewhere = !here && ap.planId !== null && ap.planId !== plan.id;
        const movable = editable && !elsewhere;
        return (
          <List.Item
            data-testid={`wifi-map-ap-item-${ap.sn}`}
            draggable={movable}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', ap.sn);
              e.dataTransfer.effectAllowed = 'move';
            }}
            className={movable ? 'wifi-map-draggable' : undefined}
            actions={
              editable
                ? [
                    here ? (
                      <Button
                        key="remove"
                        size="small"
                        onClick={() => onRemove(ap.sn)}
                        data-testid={`wifi-map-remove-${ap.sn}`}
                      >
                        {t('wifiMap.aps.remove')}
                      </Button>
                    ) : (
                      <Button
                        key="place"
                        size="small"
                        disabled={elsewhere}
                        onClick={() => onPlace(ap.sn)}
                        data-testid={`wifi-map-place-${ap.sn}`}
                      >
                        {t('wifiMap.aps.place')}
                      </Button>
                    ),
                  ]
                : undefined
            }
          >
            <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
              <Space size={4} wrap>
                <Typography.Text strong>{ap.name}</Typography.Text>
                <Badge
                  status={ap.online ? 'success' : 'error'}
                  text={t(ap.online ? 'wifiMap.aps.online' : 'wifiMap.aps.offline')}
                />
              </Space>
              <Typography.Text type="secondary">
                {t('wifiMap.aps.clients', { count: ap.clients })}
                {ap.radios.map(
                  (r) => ` · ${t('wifiMap.aps.radio', { band: r.band, channel: r.channel, power: r.power })}`,
                )}
              </Typography.Text>
              <Typography.Text type="secondary">
                {here
                  ? t('wifiMap.aps.here')
                  : elsewhere
                    ? t('wifiMap.aps.elsewhere', { floor: floorOf.get(ap.planId!) ?? '' })
                    : t('wifiMap.aps.unplaced')}
              </Typography.Text>
            </Space>
          </List.Item>
        );
      }}
    />
  );
}
