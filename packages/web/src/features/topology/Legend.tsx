import { StatusDisplay } from '@beacon/protocol';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TOPO_STATUS_COLOURS } from './TopoNode.tsx';

/** What the colours and line styles of the topology mean. */
export function Legend() {
  const { t } = useTranslation();
  const swatch = (colour: string, label: string) => (
    <Space size={4} key={label}>
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 12,
          height: 12,
          border: `2px solid ${colour}`,
          borderRadius: 3,
        }}
      />
      <Typography.Text>{label}</Typography.Text>
    </Space>
  );
  const line = (dash: string, label: string) => (
    <Space size={4} key={label}>
      <svg aria-hidden width="28" height="8">
        <line x1="0" y1="4" x2="28" y2="4" stroke="#595959" strokeWidth="2" strokeDasharray={dash} />
      </svg>
      <Typography.Text>{label}</Typography.Text>
    </Space>
  );
  return (
    <Space wrap size={16} style={{ marginTop: 8 }} data-testid="topology-legend">
      {swatch(TOPO_STATUS_COLOURS[StatusDisplay.SUCCESS], t('topology.legend.online'))}
      {swatch(TOPO_STATUS_COLOURS[StatusDisplay.ERROR], t('topology.legend.offline'))}
      {swatch(TOPO_STATUS_COLOURS[StatusDisplay.WARNING], t('topology.legend.rebooting'))}
      {swatch(TOPO_STATUS_COLOURS.none, t('topology.legend.other'))}
      {line('6 4', t('topology.legend.redundant'))}
      {line('2 4', t('topology.legend.air'))}
    </Space>
  );
}
