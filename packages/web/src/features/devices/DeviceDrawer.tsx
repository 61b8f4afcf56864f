import { UploadOutlined } from '@ant-design/icons';
import {
  ACTION_SECONDS,
  blockReason,
  type CommandView,
  capabilitiesOf,
  DEVICE_NAME_MAX,
  type DeviceView,
  FOLLOWED_COMMANDS,
  formatTimeZone,
  type MaintenanceAction,
  modelInfo,
  RESTART_ACTIONS,
  validateDeviceName,
  validateDevicePassword,
  validateRemark,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  type ButtonProps,
  Checkbox,
  Descriptions,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../forms/checkRule.ts';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { deviceKey, devicesApi, devicesKey, listByModel, maintenanceKey } from './api.ts';
import { CommandResult } from './CommandResult.tsx';
import { useActionConfirm } from './confirm.tsx';
import { scheduleParams } from './rules.ts';
import { ScheduleFields } from './ScheduleFields.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** Actions that open a form for their parameters. */
type FormAction = Extract<
  MaintenanceAction,
  | 'upgrade'
  | 'password'
  | 'reboot-schedule'
  | 'rate-limit'
  | 'poe-reboot'
  | 'copy-config'
  | 'cpe-mode'
  | 'locate'
>;

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

function EditModal({
  open,
  device,
  onClose,
  onSave,
}: {
  open: boolean;
  device: DeviceView;
  onClose(): void;
  onSave(values: { name: string; remark: string }): Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; remark: string }>();
  return (
    <Modal
      open={open}
      title={t('devices.rename')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'device-edit-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: device.name, remark: device.remark || device.name }}
        onFinish={(values) => onSave(values)}
      >
        <Form.Item
          name="name"
          label={t('devices.col.name')}
          rules={[
            { required: true, whitespace: true, message: t('devices.nameRequired') },
            checkRule(validateDeviceName, true),
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX} data-testid="device-edit-name" />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('devices.remark')}
          rules={[
            { required: true, whitespace: true, message: t('devices.remarkRequired') },
            checkRule(validateRemark, true),
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX} data-testid="device-edit-remark" />
        </Form.Item>
        <EnterSubmits />
      </Form>
    </Modal>
  );
}

function ActionFormModal({
  action,
  device,
  available,
  projectId,
  onClose,
  onSubmit,
}: {
  action: FormAction | null;
  device: DeviceView;
  available: string[];
  projectId: number;
  onClose(): void;
  onSubmit(action: MaintenanceAction, params: Record<string, unknown>): Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { busy: uploading, run } = useFormSubmit();
  const [image, setImage] = useState<{ id: number; version: string; fileName: string } | null>(null);
  const { zone } = useProjectTime(projectId);
  // Copy configuration: every other device of the same model in the project, not only this page.
  const sameModel = useQuery({
    queryKey: ['devices', projectId, 'model', device.model],
    queryFn: () => listByModel(projectId, device.model),
    enabled: action === 'copy-config',
  });
  const targets = (sameModel.data ?? []).filter((x) => x.sn !== device.sn);
  const info = modelInfo(device.model);
  const poePorts = info?.ports.filter((p) => p.poe).map((p) => p.id) ?? [];

  const submit = async () => {
    if (!action) return;
    // A failed rule shows on its field; nothing awaits this, so it must not reject.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    switch (action) {
      case 'upgrade':
        return onSubmit('upgrade', image ? { firmwareId: image.id } : { version: v.version });
      case 'password':
        return onSubmit('password', { password: v.password });
      case 'reboot-schedule':
        return onSubmit('reboot-schedule', scheduleParams(v));
      case 'rate-limit':
        return onSubmit('rate-limit', { upKbps: v.upKbps, downKbps: v.downKbps });
      case 'poe-reboot':
        return onSubmit('poe-reboot', { ports: v.ports ?? [] });
      case 'cpe-mode':
        return onSubmit('cpe-mode', { mode: v.mode });
      case 'copy-config':
        return onSubmit('copy-config', { targets: v.targets ?? [] });
      case 'locate':
        return onSubmit('locate', { seconds: v.seconds });
    }
  };

  const uploadImage = async (file: File) => {
    if (!file.name.toLowerCase().endsWith('.bin')) {
      showError(t('devices.firmwareFormat'));
      return;
    }
    if (file.size > 40 * 1024 * 1024) {
      showError(t('devices.firmwareSize'));
      return;
    }
    await run(async () => {
      const fw = await devicesApi.uploadFirmware(projectId, file);
      setImage({ id: fw.id, version: fw.version, fileName: fw.fileName });
    });
  };

  return (
    <Modal
      open={action !== null}
      title={action ? t(`devices.action.${action}`) : ''}
      onCancel={() => {
        setImage(null);
        onClose();
      }}
      onOk={submit}
      okButtonProps={{ 'data-testid': 'action-form-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
        {action === 'upgrade' ? (
          <>
            <p>{t('devices.firmwareCurrent', { version: device.firmware ?? '—' })}</p>
            <Form.Item
              name="version"
              label={t('devices.firmwareVersion')}
              rules={[{ required: !image, message: t('devices.firmwareChoose') }]}
            >
              <Select
                disabled={!!image}
                data-testid="upgrade-version"
                options={available.map((x) => ({ value: x, label: x }))}
                placeholder={available.length ? undefined : t('devices.firmwareLatest')}
              />
            </Form.Item>
            <Upload
              accept=".bin"
              showUploadList={false}
              beforeUpload={(f) => {
                void uploadImage(f);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading} data-testid="upgrade-file">
                {t('devices.firmwareUpload')}
              </Button>
            </Upload>
            {image ? <p data-testid="upgrade-image">{t('devices.firmwareImage', image)}</p> : null}
          </>
        ) : null}
        {action === 'password' ? (
          <>
            <Form.Item
              name="password"
              label={t('devices.password')}
              extra={t('devices.passwordRule')}
              rules={[
                {
                  validator: (_, value: string | undefined) => {
                    const failure = validateDevicePassword(value ?? '');
                    return failure ? Promise.reject(new Error(failure.message)) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input.Password data-testid="device-password" autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('devices.passwordConfirm')}
              dependencies={['password']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('devices.passwordMismatch'))),
                }),
              ]}
            >
              <Input.Password data-testid="device-password-confirm" autoComplete="new-password" />
            </Form.Item>
          </>
        ) : null}
        {action === 'reboot-schedule' ? <ScheduleFields zone={zone} /> : null}
        {action === 'rate-limit' ? (
          <>
            <Form.Item
              name="upKbps"
              label={t('devices.rateUp')}
              initialValue={0}
              rules={[{ required: true }]}
            >
              <InputNumber min={0} max={10_000_000} precision={0} addonAfter="Kbps" data-testid="rate-up" />
            </Form.Item>
            <Form.Item
              name="downKbps"
              label={t('devices.rateDown')}
              initialValue={0}
              rules={[{ required: true }]}
            >
              <InputNumber min={0} max={10_000_000} precision={0} addonAfter="Kbps" data-testid="rate-down" />
            </Form.Item>
            <p>{t('devices.rateHelp')}</p>
          </>
        ) : null}
        {action === 'poe-reboot' ? (
          <Form.Item
            name="ports"
            label={t('devices.poePorts')}
            rules={[{ required: true, message: t('devices.poeChoose') }]}
          >
            <Checkbox.Group
              data-testid="poe-ports"
              options={poePorts.map((p) => ({ value: p, label: String(p) }))}
            />
          </Form.Item>
        ) : null}
        {action === 'cpe-mode' ? (
          <Form.Item
            name="mode"
            label={t('devices.cpeMode')}
            initialValue={device.cpeMode === 'client' ? 'ap' : 'client'}
          >
            <Radio.Group
              options={[
                { value: 'ap', label: t('devices.cpe.ap') },
                { value: 'client', label: t('devices.cpe.client') },
              ]}
            />
          </Form.Item>
        ) : null}
        {action === 'copy-config' ? (
          <Form.Item
            name="targets"
            label={t('devices.copyTargets')}
            rules={[{ required: true, message: t('devices.copyChoose') }]}
          >
            <Select
              mode="multiple"
              data-testid="copy-targets"
              loading={sameModel.isFetching}
              showSearch={{ optionFilterProp: 'label' }}
              maxTagCount="responsive"
              options={targets.map((x) => ({ value: x.sn, label: `${x.name} (${x.sn})` }))}
              notFoundContent={
                sameModel.isFetching ? undefined : t('devices.copyNone', { model: device.model })
              }
            />
          </Form.Item>
        ) : null}
        <EnterSubmits />
      </Form>
    </Modal>
  );
}
