import {
  ACTION_SECONDS,
  blockReason,
  capabilitiesOf,
  FOLLOWED_COMMANDS,
  formatTimeZone,
  type MaintenanceAction,
  RESTART_ACTIONS,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Button, type ButtonProps, Divider, Drawer, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { ActionFormModal, type FormAction } from './ActionFormModal.tsx';
import { deviceKey, devicesApi, devicesKey, maintenanceKey } from './api.ts';
import { useActionConfirm } from './confirm.tsx';
import { DeviceCommandsTable } from './DeviceCommandsTable.tsx';
import { DeviceFactsList } from './DeviceFactsList.tsx';
import { DhcpServerPanel } from './dhcp/DhcpServerPanel.tsx';
import { EditModal } from './EditModal.tsx';
import { PortsPanel } from './ports/PortsPanel.tsx';

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
          <DeviceFactsList device={d} projectId={projectId} />

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

          {d.type === 'switch' ? (
            <>
              <Divider titlePlacement="start">{t('switchPorts.title')}</Divider>
              <PortsPanel projectId={projectId} sn={d.sn} writable={writable} />
            </>
          ) : null}

          {d.type === 'switch' || d.type === 'ap' ? (
            <>
              <Divider titlePlacement="start">{t('dhcpServer.title')}</Divider>
              <DhcpServerPanel projectId={projectId} sn={d.sn} writable={writable} />
            </>
          ) : null}

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
          <DeviceCommandsTable commands={m?.commands ?? []} projectId={projectId} />

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
