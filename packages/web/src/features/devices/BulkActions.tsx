import { DownOutlined } from '@ant-design/icons';
import {
  ACTION_SECONDS,
  type ActionResultView,
  type CommandView,
  type DeviceView,
  FOLLOWED_COMMANDS,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, type ButtonProps, Dropdown, Form, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { errorText, showError } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { devicesApi, devicesKey } from './api.ts';
import { CommandResult } from './CommandResult.tsx';
import { commandStage, countStages, shownResult } from './commandStage.ts';
import { useActionConfirm } from './confirm.tsx';
import {
  BULK_SPECS,
  type BulkSpec,
  bulkSpec,
  countReasons,
  partitionSelection,
  scheduleParams,
  summarizeResults,
  upgradeChoice,
} from './rules.ts';
import { ScheduleFields } from './ScheduleFields.tsx';

/** Shown as buttons; the rest sit in the "More actions" menu. */
const PRIMARY = ['reboot', 'upgrade', 'locate'];

interface BulkRun {
  spec: BulkSpec;
  results: ActionResultView[];
}

/**
 * The bulk actions on the table's selection (POST …/devices/actions/{action} with `sns`): each
 * asks first, says how many selected devices cannot take it now, and shows every device's result.
 */
export function BulkActions({
  projectId,
  selected,
  writable,
}: {
  projectId: number;
  selected: DeviceView[];
  writable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const confirm = useActionConfirm();
  const [formSpec, setFormSpec] = useState<BulkSpec | null>(null);
  const [done, setDone] = useState<BulkRun | null>(null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const disabled = !writable || selected.length === 0;

  const run = async (spec: BulkSpec, params: Record<string, unknown>) => {
    const sns = selected.map((d) => d.sn);
    try {
      const res = await withLoadState('saving', () => devicesApi.bulk(projectId, spec.action, sns, params));
      setNames(new Map(selected.map((d) => [d.sn, d.name])));
      setDone({ spec, results: res.results });
    } catch (e) {
      showError(errorText(e));
    } finally {
      queryClient.invalidateQueries({ queryKey: devicesKey(projectId) });
    }
  };

  const ask = (spec: BulkSpec, params: Record<string, unknown>) =>
    confirm({
      title: t(`devices.action.${spec.key}`),
      text: t('devices.bulkConfirm', { count: selected.length }),
      seconds: ACTION_SECONDS[spec.action],
      danger: spec.danger,
      note: <RefusedNote spec={spec} selected={selected} writable={writable} />,
      onOk: () => run(spec, params),
    });

  const start = (key: string) => {
    const spec = bulkSpec(key);
    if (spec.form) setFormSpec(spec);
    else ask(spec, spec.params ?? {});
  };

  const more = BULK_SPECS.filter((s) => !PRIMARY.includes(s.key));
  return (
    <>
      {PRIMARY.map((key) => (
        <Button key={key} disabled={disabled} onClick={() => start(key)} data-testid={`bulk-${key}`}>
          {t(`devices.action.${key}`)}
          {bulkSpec(key).form ? '…' : ''}
        </Button>
      ))}
      <Dropdown
        disabled={disabled}
        trigger={['click']}
        menu={{
          onClick: ({ key }) => start(key),
          items: more.flatMap((s) => [
            ...(s.danger ? [{ type: 'divider' as const }] : []),
            {
              key: s.key,
              danger: s.danger,
              label: (
                <span data-testid={`bulk-${s.key}`}>
                  {t(`devices.action.${s.key}`)}
                  {s.form ? '…' : ''}
                </span>
              ),
            },
          ]),
        }}
      >
        <Button disabled={disabled} data-testid="bulk-more">
          <Space size={4}>
            {t('devices.bulkMore')}
            <DownOutlined />
          </Space>
        </Button>
      </Dropdown>
      <BulkFormModal
        projectId={projectId}
        spec={formSpec}
        selected={selected}
        writable={writable}
        onClose={() => setFormSpec(null)}
        onSubmit={(spec, params) => {
          setFormSpec(null);
          // A restart (upgrade) is confirmed with its duration; a schedule is confirmed by its form.
          if (ACTION_SECONDS[spec.action] > 0) ask(spec, params);
          else void run(spec, params);
        }}
      />
      <BulkResultsModal projectId={projectId} run={done} names={names} onClose={() => setDone(null)} />
    </>
  );
}

/** How many of the selection cannot take the action now, and why. */
function RefusedNote({
  spec,
  selected,
  writable,
}: {
  spec: BulkSpec;
  selected: DeviceView[];
  writable: boolean;
}) {
  const { t } = useTranslation();
  const { refused } = partitionSelection(spec, selected, writable);
  if (refused.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginTop: 12 }}
      data-testid="bulk-refused"
      title={t('devices.bulkRefused', { count: refused.length, total: selected.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {countReasons(refused).map(({ reason, count }) => (
            <li key={reason}>{`${t(`devices.blocked.${reason}`)} (${count})`}</li>
          ))}
        </ul>
      }
    />
  );
}

/** Parameters of a bulk upgrade (one version for one model) or a scheduled reboot. */
function BulkFormModal({
  projectId,
  spec,
  selected,
  writable,
  onClose,
  onSubmit,
}: {
  projectId: number;
  spec: BulkSpec | null;
  selected: DeviceView[];
  writable: boolean;
  onClose(): void;
  onSubmit(spec: BulkSpec, params: Record<string, unknown>): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { zone } = useProjectTime(projectId);
  const choice = spec?.form === 'upgrade' ? upgradeChoice(selected) : null;
  const blocked = choice !== null && !choice.ok;

  const submit = async () => {
    if (!spec || blocked) return;
    // A failed rule shows on its field; antd's Modal does not await onOk, so this must not reject.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    onSubmit(spec, spec.form === 'upgrade' ? { version: v.version } : scheduleParams(v));
  };

  return (
    <Modal
      open={spec !== null}
      title={spec ? t(`devices.action.${spec.key}`) : ''}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ 'data-testid': 'bulk-form-submit', disabled: blocked } as ButtonProps}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <p>{t('devices.bulkAppliesTo', { count: selected.length })}</p>
      {spec ? <RefusedNote spec={spec} selected={selected} writable={writable} /> : null}
      <Form form={form} layout="vertical" preserve={false} onFinish={submit} style={{ marginTop: 12 }}>
        {choice && !choice.ok ? (
          <Alert
            type="info"
            showIcon
            data-testid="bulk-upgrade-blocked"
            title={t(`devices.bulkUpgrade.${choice.reason}`, { model: selected[0]?.model ?? '' })}
          />
        ) : null}
        {choice?.ok ? (
          <Form.Item
            name="version"
            label={t('devices.bulkUpgradeVersion', { model: choice.model })}
            initialValue={choice.versions[0]}
            extra={t('devices.bulkUpgradeHelp')}
            rules={[{ required: true, message: t('devices.firmwareChoose') }]}
          >
            <Select
              data-testid="bulk-upgrade-version"
              options={choice.versions.map((x) => ({ value: x, label: x }))}
            />
          </Form.Item>
        ) : null}
        {spec?.form === 'reboot-schedule' ? <ScheduleFields zone={zone} /> : null}
        <EnterSubmits />
      </Form>
    </Modal>
  );
}

/**
 * The accepted commands of a followed action (reboot, reset, upgrade), read again whenever a live
 * event of the project arrives: the key sits under devicesKey, which useLiveDeviceEvents refreshes.
 */
function useFollowedCommands(projectId: number, run: BulkRun | null): Map<string, CommandView> | null {
  const followed = run !== null && FOLLOWED_COMMANDS.includes(run.spec.action);
  const ids = followed ? run.results.filter((r) => r.code === 0 && r.commandId).map((r) => r.commandId!) : [];
  const commands = useQuery({
    queryKey: [...devicesKey(projectId), 'commands', ids],
    queryFn: () => devicesApi.commands(projectId, ids),
    enabled: ids.length > 0,
  });
  if (!followed) return null;
  return new Map((commands.data ?? []).map((c) => [c.id, c]));
}

/** Every device's result of a bulk call, with the count of each failure. */
function BulkResultsModal({
  projectId,
  run,
  names,
  onClose,
}: {
  projectId: number;
  run: BulkRun | null;
  names: ReadonlyMap<string, string>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const summary = summarizeResults(run?.results ?? []);
  const commands = useFollowedCommands(projectId, run);
  // A reboot, reset or upgrade the device accepted is "accepted" until its final outcome arrives.
  const shownOf = (r: ActionResultView) =>
    shownResult(
      r,
      run?.spec.action ?? '',
      commands !== null,
      r.commandId ? commands?.get(r.commandId) : undefined,
    );
  const follow = countStages((run?.results ?? []).map((r) => commandStage(shownOf(r))));
  return (
    <Modal
      open={run !== null}
      title={run ? t(`devices.action.${run.spec.key}`) : ''}
      onCancel={onClose}
      onOk={onClose}
      okText={t('common.close')}
      okButtonProps={{ autoFocus: true, 'data-testid': 'bulk-results-close' } as ButtonProps}
      cancelButtonProps={{ style: { display: 'none' } }}
      width={640}
    >
      <Alert
        type={
          commands
            ? follow.failed > 0
              ? 'warning'
              : follow.pending > 0
                ? 'info'
                : 'success'
            : summary.failed === 0
              ? 'success'
              : summary.succeeded === 0
                ? 'error'
                : 'warning'
        }
        showIcon
        style={{ marginBottom: 12 }}
        data-testid="bulk-summary"
        title={
          commands
            ? t('devices.bulkFollow', follow)
            : t('devices.bulkSummary', { succeeded: summary.succeeded, failed: summary.failed })
        }
        description={
          summary.failures.length > 0 ? (
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {summary.failures.map((f) => (
                <li key={f.code}>{`${f.message} (${f.code}): ${f.count}`}</li>
              ))}
            </ul>
          ) : undefined
        }
      />
      <Table<ActionResultView>
        rowKey="sn"
        size="small"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={run?.results ?? []}
        data-testid="bulk-results"
        onRow={(r) => ({ 'data-testid': `bulk-result-${r.sn}` }) as object}
        columns={[
          { key: 'sn', dataIndex: 'sn', title: t('devices.col.sn'), width: 190 },
          { key: 'name', title: t('devices.col.name'), render: (_, r) => names.get(r.sn) ?? '' },
          {
            key: 'code',
            title: t('devices.result'),
            render: (_, r) => <CommandResult command={shownOf(r)} />,
          },
        ]}
      />
    </Modal>
  );
}
