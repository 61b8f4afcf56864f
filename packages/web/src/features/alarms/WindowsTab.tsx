import { DEVICE_ROUTES, MaintenanceWindowBody, type MaintenanceWindowView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Table, type TableProps, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { callRoute } from '../../api/route.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { formatDateTime } from '../../util/format.ts';
import { alarmsApi, alarmsKey } from './api.ts';

interface Values {
  sns: string[];
  startsAt: string;
  endsAt: string;
  reason: string;
}

const toIso = (local: string | undefined) => {
  const d = local ? new Date(local) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
};

/** Maintenance windows: their devices raise no alarm between start and end. */
export function WindowsTab({ projectId, blocked }: { projectId: number; blocked: string | undefined }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const key = [...alarmsKey(projectId), 'windows'];
  const windows = useQuery({ queryKey: key, queryFn: () => alarmsApi.windows(projectId) });
  const devices = useQuery({
    queryKey: ['devices', projectId, 'alarm-window-options'],
    queryFn: () => callRoute(DEVICE_ROUTES.list, { id: projectId }, { query: { page: 1, pageSize: 200 } }),
  });

  const add = async (values: Values) => {
    const body = parseForm(
      MaintenanceWindowBody,
      {
        ...values,
        startsAt: toIso(values.startsAt),
        endsAt: toIso(values.endsAt),
        reason: values.reason ?? '',
      },
      form,
    );
    if (!body) return;
    const outcome = await run(() => alarmsApi.addWindow(projectId, body));
    if (outcome.ok) {
      showSuccess(t('alarms.windows.added'));
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: key });
    }
  };
  const remove = async (id: number) => {
    try {
      await alarmsApi.removeWindow(projectId, id);
      showSuccess(t('alarms.windows.removed'));
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (e) {
      showError(errorText(e));
    }
  };

  const names = new Map((devices.data?.items ?? []).map((d) => [d.sn, d.name || d.sn]));
  const columns: TableProps<MaintenanceWindowView>['columns'] = [
    { key: 'startsAt', dataIndex: 'startsAt', title: t('alarms.windows.start'), render: formatDateTime },
    { key: 'endsAt', dataIndex: 'endsAt', title: t('alarms.windows.end'), render: formatDateTime },
    {
      key: 'sns',
      dataIndex: 'sns',
      title: t('alarms.windows.devices'),
      render: (sns: string[]) => sns.map((sn) => names.get(sn) ?? sn).join(', '),
    },
    {
      key: 'reason',
      dataIndex: 'reason',
      title: t('alarms.windows.reason'),
      render: (v: string) => v || '-',
    },
    {
      key: 'action',
      title: t('alarms.col.action'),
      render: (_: unknown, w) => (
        <DeleteButton
          confirm={t('alarms.windows.confirmDelete')}
          blockedReason={blocked}
          testId={`alarm-window-delete-${w.id}`}
          onConfirm={() => remove(w.id)}
        />
      ),
    },
  ];
  return (
    <>
      <Form<Values>
        form={form}
        layout={phone ? 'vertical' : 'inline'}
        onFinish={add}
        disabled={blocked !== undefined}
        style={{ marginBottom: 16, rowGap: 8 }}
        data-testid="alarm-window-form"
      >
        <Form.Item
          name="sns"
          label={t('alarms.windows.devices')}
          rules={[{ required: true, message: t('alarms.windows.pickDevices') }]}
        >
          <Select
            mode="multiple"
            style={{ minWidth: 220 }}
            aria-label={t('alarms.windows.devices')}
            options={(devices.data?.items ?? []).map((d) => ({ value: d.sn, label: d.name || d.sn }))}
            optionFilterProp="label"
          />
        </Form.Item>
        <Form.Item
          name="startsAt"
          label={t('alarms.windows.start')}
          rules={[{ required: true, message: t('alarms.windows.pickTime') }]}
        >
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item
          name="endsAt"
          label={t('alarms.windows.end')}
          rules={[{ required: true, message: t('alarms.windows.pickTime') }]}
        >
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item name="reason" label={t('alarms.windows.reason')}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item>
          <Tooltip title={blocked}>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="alarm-window-add">
              {t('alarms.windows.add')}
            </Button>
          </Tooltip>
        </Form.Item>
      </Form>
      <Table<MaintenanceWindowView>
        rowKey="id"
        size="middle"
        data-testid="alarm-windows"
        dataSource={windows.data ?? []}
        loading={windows.isFetching && !windows.data}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('alarms.windows.empty') }}
        pagination={false}
      />
    </>
  );
}
