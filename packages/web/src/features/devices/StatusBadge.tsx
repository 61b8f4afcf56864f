import { deviceStatusDisplay, StatusDisplay } from '@beacon/protocol';
import { Progress, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** SPEC.md §4 display mapping: error red, success green, warning orange. */
export const STATUS_COLOURS: Record<StatusDisplay, string> = {
  [StatusDisplay.ERROR]: 'red',
  [StatusDisplay.SUCCESS]: 'green',
  [StatusDisplay.WARNING]: 'orange',
};

export function StatusBadge({
  device,
}: {
  device: { sn: string; status: number; operation: string | null; progress: number | null };
}) {
  const { t } = useTranslation();
  const display = deviceStatusDisplay(device.status);
  return (
    <Space size={4}>
      <Tag
        color={STATUS_COLOURS[display]}
        data-testid={`device-status-${device.sn}`}
        data-status={device.status}
      >
        {t(`devices.status.${device.status}`, { defaultValue: String(device.status) })}
      </Tag>
      {device.progress !== null && device.progress !== undefined ? (
        <Progress percent={device.progress} size="small" style={{ width: 80 }} />
      ) : null}
    </Space>
  );
}
