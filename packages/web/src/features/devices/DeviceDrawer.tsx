import {
  ACTION_SECONDS,
  blockReason,
  type CommandView,
  capabilitiesOf,
  FOLLOWED_COMMANDS,
  formatTimeZone,
  type MaintenanceAction,
  RESTART_ACTIONS,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  type ButtonProps,
  Descriptions,
  Divider,
  Drawer,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { ActionFormModal, type FormAction } from './ActionFormModal.tsx';
import { deviceKey, devicesApi, devicesKey, maintenanceKey } from './api.ts';
import { CommandResult } from './CommandResult.tsx';
import { useActionConfirm } from './confirm.tsx';
import { EditModal } from './EditModal.tsx';
import { StatusBadge } from './StatusBadge.tsx';

interface Props {
  projectId: number;
  sn: string | null;
  writable: boolean;
  onClose(): void;
}

/** The detail drawer of one device: its facts, every maintenance action, rename, remove. */
export function DeviceDrawer({ projectId, sn, writable, onClose }: Props) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const confirm = useActionConfirm();
  const queryClient = useQueryClient();
  const [formAction, setFormAction] = useState<FormAction | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const [remoteUrl, setRemoteUrl] = useState<string | null>(null);
  const time = useProjectTime(projectId);

  const detail = useQuery({
    queryKey: deviceKey(projectId, sn),
    queryFn: () => devicesApi.get(projectId, sn!),
    enabled: sn !== null,
  });
  const maintenance = useQuery({
    queryKey: maintenanceKey(projectId, sn),
    queryFn: () => devicesApi.maintenance(projectId, sn!),
    enabled: sn !== null,
  });
  const d = detail.data;
  const caps = d ? capabilitiesOf(d) : new Set<string>();
  const local = d?.managementMode === 0;

  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: devicesKey(projectId) });
    queryClient.invalidateQueries({ queryKey: deviceKey(projectId, sn) });
    queryClient.invalidateQueries({ queryKey: maintenanceKey(projectId, sn) });
  };

  const run = async (action: MaintenanceAction, params: Record<string, unknown> = {}) => {
    if (!sn) return false;
    try {
      const result = await withLoadState('saving', () => devicesApi.action(projectId, sn, action, params));
      if (action === 'remote-management') setRemoteUrl((result.data?.url as string | undefined) ?? null);
      if (action === 'copy-config') {
        const results = (result.data?.results ?? []) as {
          sn: string;
          code: number;
          message: string | null;
        }[];
        const failed = results.filter((r) => r.code !== 0);
        if (failed.length) showError(failed.map((r) => `${r.sn}: ${r.code} ${r.message ?? ''}`).join('; '));
        else showSuccess(t('devices.actionDone'));
      } else if (result.code === 0 && FOLLOWED_COMMANDS.includes(action)) {
        // The device only accepted it: the command history follows it to its final outcome.
        showSuccess(t('devices.actionAccepted'));
      } else showSuccess(t('devices.actionDone'));
      refresh();
      return true;
    } catch (e) {
      showError(errorText(e));
      refresh();
      return false;
    }
  };

  /** Restart-like actions are confirmed with their expected duration (SPEC.md §9). */
  const confirmThen = (action: MaintenanceAction, params: Record<string, unknown> = {}) =>
    confirm({
      title: t(`devices.action.${action}`),
      text: t(`devices.confirm.${action}`, { defaultValue: t('devices.confirm.generic') }),
      seconds: ACTION_SECONDS[action],
      danger: action === 'reset',
      onOk: () => run(action, params),
    });

  const remove = (mode: 'unbind' | 'delete') =>
    modal.confirm({
      title: t(`devices.remove.${mode}`),
      content: t(`devices.remove.${mode}Confirm`, { name: d?.name ?? sn }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok', danger: true } as ButtonProps,
      width: 360,
      onOk: async () => {
        try {
          await withLoadState('saving', () => devicesApi.remove(projectId, sn!, mode));
          showSuccess(t('devices.removed'));
          queryClient.invalidateQueries({ queryKey: devicesKey(projectId) });
          onClose();
        } catch (e) {
          showError(errorText(e));
        }
      },
    });

  /** Why an action is unavailable, or null. */
  const blocked = (action: MaintenanceAction, capability?: string): string | null => {
    if (!d) return t('devices.blocked.offline');
    const reason = blockReason(action, d, { writable, capability });
    return reason ? t(`devices.blocked.${reason}`) : null;
  };

  const actionButton = (
    action: MaintenanceAction,
    onClick: () => void,
    capability?: string,
    label?: string,
    danger?: boolean,
  ) => {
    const reason = blocked(action, capability);
    return (
      <Tooltip title={reason} key={`${action}-${label ?? ''}`}>
        <Button
          disabled={reason !== null}
          onClick={onClick}
          danger={danger}
          data-testid={`device-action-${action}${label ? `-${label}` : ''}`}
        >
          {label ? t(`devices.action.${action}-${label}`) : t(`devices.action.${action}`)}
        </Button>
      </Tooltip>
    );
  };

  const m = maintenance.data;
  const remote = m?.remote;
  const url = remote?.url ?? remoteUrl;

  return (
    <Drawer
      open={sn !== null}
      onClose={onClose}
      width={720}
      title={d ? `${d.name} (${d.sn})` : sn}
      data-testid="device-drawer"
      destroyOnHidden
    >
      {d ? (
        <>
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
              <Descriptions.Item label={t('devices.cpeMode')}>
                {t(`devices.cpe.${d.cpeMode}`)}
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('devices.ports')}>{d.portCount}</Descriptions.Item>
            <Descriptions.Item label={t('devices.config')}>
              <Tag
                color={
                  d.configStatus === 'applied' ? 'green' : d.configStatus === 'failed' ? 'red' : 'orange'
                }
              >
                {t(`devices.configStatus.${d.configStatus}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('devices.lastSeen')}>{time.format(d.lastSeenAt)}</Descriptions.Item>
          </Descriptions>

          <Divider titlePlacement="start">{t('devices.actions')}</Divider>
          <Space wrap data-testid="device-actions">
            {actionButton('reboot', () => confirmThen('reboot'), 'reboot')}
            {actionButton('reset', () => confirmThen('reset'), 'reset', undefined, true)}
            {actionButton('upgrade', () => setFormAction('upgrade'), 'upgrade')}
            {actionButton('password', () => setFormAction('password'), 'password')}
            {actionButton('reboot-schedule', () => setFormAction('reboot-schedule'), 'reboot')}
            {actionButton('locate', () => run('locate', { seconds: 60 }), 'locate')}
            {actionButton('led', () => run('led', { on: true }), 'led', 'on')}
            {actionButton('led', () => run('led', { on: false }), 'led', 'off')}
            {actionButton('rate-limit', () => setFormAction('rate-limit'), 'rate-limit')}
            {caps.has('poe') ? actionButton('poe-reboot', () => setFormAction('poe-reboot'), 'poe') : null}
            {caps.has('cpe-mode')
              ? actionButton('cpe-mode', () => setFormAction('cpe-mode'), 'cpe-mode')
              : null}
            {actionButton('copy-config', () => setFormAction('copy-config'))}
            {actionButton(
              'local-management',
              () => run('local-management', { enabled: !local }),
              'local-management',
              local ? 'off' : 'on',
            )}
          </Space>

          <Divider titlePlacement="start">{t('devices.remoteTitle')}</Divider>
          <Space wrap>
            <Tag data-testid="remote-state">{t(`devices.remote.${remote?.state ?? 'closed'}`)}</Tag>
            {remote?.state === 'open' && url ? (
              <a href={url} target="_blank" rel="noreferrer" data-testid="remote-url">
                {t('devices.remoteOpenPage')}
              </a>
            ) : null}
            {remote?.state === 'open'
              ? actionButton(
                  'remote-management',
                  () => run('remote-management', { enabled: false }),
                  'remote-management',
                  'close',
                )
              : actionButton(
                  'remote-management',
                  () => run('remote-management', { enabled: true }),
                  'remote-management',
                  'open',
                )}
          </Space>

          <Divider titlePlacement="start">{t('devices.scheduleTitle')}</Divider>
          <span data-testid="schedule-summary">
            {m?.schedule
              ? t('devices.scheduleSummary', {
                  days: m.schedule.days.map((x) => t(`devices.day.${x}`)).join(', '),
                  time: m.schedule.time,
                  zone: formatTimeZone(m.schedule.timeZone),
                  next: time.format(m.schedule.nextRunAt),
                })
              : t('devices.scheduleNone')}
          </span>

          <Divider titlePlacement="start">{t('devices.commands')}</Divider>
          <Table<CommandView>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={m?.commands ?? []}
            data-testid="device-commands"
            onRow={(c) => ({ 'data-testid': `device-command-${c.name}` }) as object}
            columns={[
              { key: 'name', dataIndex: 'name', title: t('devices.command') },
              {
                key: 'state',
                title: t('devices.result'),
                render: (_, c) => <CommandResult command={c} />,
              },
              { key: 'account', dataIndex: 'account', title: t('devices.by') },
              { key: 'at', title: t('devices.at'), render: (_, c) => time.format(c.createdAt) },
            ]}
          />

          <Divider />
          <Space wrap>
            <Button disabled={!writable} onClick={() => setEditOpen(true)} data-testid="device-edit">
              {t('devices.rename')}
            </Button>
            <Button disabled={!writable} danger onClick={() => remove('unbind')} data-testid="device-unbind">
              {t('devices.remove.unbind')}
            </Button>
            <Button disabled={!writable} danger onClick={() => remove('delete')} data-testid="device-delete">
              {t('devices.remove.delete')}
            </Button>
          </Space>

          <EditModal
            open={editOpen}
            device={d}
            onClose={() => setEditOpen(false)}
            onSave={async (values) => {
              try {
                await withLoadState('saving', () => devicesApi.update(projectId, d.sn, values));
                showSuccess(t('common.saved'));
                refresh();
                setEditOpen(false);
              } catch (e) {
                showError(errorText(e));
              }
            }}
          />
          <ActionFormModal
            action={formAction}
            device={d}
            available={m?.firmware.available ?? []}
            projectId={projectId}
            onClose={() => setFormAction(null)}
            onSubmit={async (action, params) => {
              if (RESTART_ACTIONS.includes(action)) {
                setFormAction(null);
                confirmThen(action, params);
                return;
              }
              if (await run(action, params)) setFormAction(null);
            }}
          />
        </>
      ) : detail.isError ? (
        errorText(detail.error)
      ) : null}
    </Drawer>
  );
}
