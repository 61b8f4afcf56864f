import type { DeviceDetailView } from '@beacon/protocol';
import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { StatusBadge } from './StatusBadge.tsx';

/** The device's facts in the drawer: status, versions, addresses, uplink, PoE, configuration. */
export function DeviceFactsList({ device: d, projectId }: { device: DeviceDetailView; projectId: number }) {
  const { t } = useTranslation();
  const time = useProjectTime(projectId);
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid="device-facts">
      <Descriptions.Item label={t('devices.col.name')}>{d.name}</Descriptions.Item>
      <Descriptions.Item label={t('devices.remark')}>{d.remark || t('common.none')}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.status')}>
        <StatusBadge device={d} />
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.operation')}>
        {d.operation ? t(`devices.op.${d.operation}`, { defaultValue: d.operation }) : t('common.none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.col.model')}>{d.model}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.type')}>{t(`devices.type.${d.type}`)}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.sn')}>{d.sn}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.mac')}>{d.mac ?? t('common.none')}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.firmware')}>
        <span data-testid="device-firmware">{d.firmware ?? t('common.none')}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.col.ip')}>{d.ip ?? t('common.none')}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.mode')}>
        {d.managementMode === 0 ? t('devices.local') : t('devices.cloud')}
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.col.uplink')}>
        {d.uplink ? `${d.uplink.sn}${d.uplink.port ? ` / ${d.uplink.port}` : ''}` : t('common.none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.col.clients')}>{d.clientCount}</Descriptions.Item>
      <Descriptions.Item label={t('devices.dhcpClients')}>{d.dhcpClientCount}</Descriptions.Item>
      <Descriptions.Item label={t('devices.col.poe')}>
        {d.poe
          ? t('devices.poeDetail', {
              used: d.poe.used.toFixed(1),
              total: d.poe.total,
              remaining: d.poe.remaining.toFixed(1),
            })
          : t('common.none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.col.meshRole')}>
        {d.meshRole ? t(`devices.mesh.${d.meshRole}`) : t('common.none')}
      </Descriptions.Item>
      {d.cpeMode ? (
        <Descriptions.Item label={t('devices.cpeMode')}>{t(`devices.cpe.${d.cpeMode}`)}</Descriptions.Item>
      ) : null}
      <Descriptions.Item label={t('devices.ports')}>{d.portCount}</Descriptions.Item>
      <Descriptions.Item label={t('devices.config')}>
        <Tag color={d.configStatus === 'applied' ? 'green' : d.configStatus === 'failed' ? 'red' : 'orange'}>
          {t(`devices.configStatus.${d.configStatus}`)}
        </Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('devices.lastSeen')}>{time.format(d.lastSeenAt)}</Descriptions.Item>
    </Descriptions>
  );
}
