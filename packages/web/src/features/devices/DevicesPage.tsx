import { DownloadOutlined, PlusOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  AddDeviceBody,
  DEVICE_NAME_MAX,
  type DeviceView,
  type ImportResultView,
  MODEL_CATALOGUE,
  validateDeviceName,
  validateSn,
} from '@beacon/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Badge,
  Button,
  type ButtonProps,
  Card,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, useColumnChoice } from '../../components/ColumnChooser.tsx';
import { NoProject } from '../../components/NoProject.tsx';
import { useInertMeasureRow } from '../../components/useInertMeasureRow.ts';
import { checkRule } from '../../forms/checkRule.ts';
import { EnterSubmits } from '../../forms/EnterSubmits.tsx';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { DeviceExportButton } from '../solutions/DeviceExportButton.tsx';
import { type DeviceListParams, devicesApi, devicesKey } from './api.ts';
import { BulkActions } from './BulkActions.tsx';
import { DeviceDrawer } from './DeviceDrawer.tsx';
import { rememberRows, resolveSelection } from './rules.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { useLiveDeviceEvents } from './useLiveEvents.ts';

/** The layout's scrolling content box: the table's header and scroll bar stick to it. */
const contentScroller = () =>
  (document.querySelector('[data-testid="content-scroll"]') as HTMLElement | null) ?? document.body;

const SEARCH_FIELDS = ['all', 'ip', 'model', 'port', 'name', 'vlan', 'mac'] as const;

/**
 * The columns between the name and the actions, in table order. By default those that tell
 * devices apart and say how they are doing show; the rest are a choice away (the chooser), so the
 * table fits a 1440 px window without scrolling.
 */
const OPTIONAL_COLUMNS = [
  'model',
  'type',
  'mac',
  'sn',
  'firmware',
  'ip',
  'status',
  'managementMode',
  'uplink',
  'clientCount',
  'poe',
  'meshRole',
] as const;
const DEFAULT_COLUMNS: readonly string[] = ['model', 'sn', 'ip', 'status', 'uplink', 'clientCount'];
const COLUMN_TITLE_KEYS: Record<(typeof OPTIONAL_COLUMNS)[number], string> = {
  model: 'devices.col.model',
  type: 'devices.col.type',
  mac: 'devices.col.mac',
  sn: 'devices.col.sn',
  firmware: 'devices.col.firmware',
  ip: 'devices.col.ip',
  status: 'devices.col.status',
  managementMode: 'devices.col.mode',
  uplink: 'devices.col.uplink',
  clientCount: 'devices.col.clients',
  poe: 'devices.col.poe',
  meshRole: 'devices.col.meshRole',
};
type SearchField = (typeof SEARCH_FIELDS)[number];

/** /manage/devconf: the project's devices, their maintenance actions, add and import. */
export function DevicesPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const writable = canWrite(current);
  const live = useLiveDeviceEvents(projectId);
  const phone = useIsPhone();
  const columnChoice = useColumnChoice('devices', OPTIONAL_COLUMNS, DEFAULT_COLUMNS);
  const tableBox = useRef<HTMLDivElement>(null);
  useInertMeasureRow(tableBox);

  const [params, setParams] = useState<DeviceListParams>({
    page: 1,
    pageSize: 20,
    sort: 'name',
    order: 'asc',
  });
  const [field, setField] = useState<SearchField>('all');
  const [term, setTerm] = useState('');
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [seen, setSeen] = useState<ReadonlyMap<string, DeviceView>>(new Map());
  const [drawerSn, setDrawerSn] = useState<string | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);

  const list = useQuery({
    queryKey: [...devicesKey(projectId), params],
    queryFn: () => devicesApi.list(projectId!, params),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
  });

  // Another project: its devices, not the last project's selection.
  useEffect(() => {
    void projectId;
    setSelectedKeys([]);
    setSeen(new Map());
    setDrawerSn(null);
  }, [projectId]);
  const selected = resolveSelection(selectedKeys, list.data?.items ?? [], seen);

  if (!current) return <NoProject title={t('route.maintenance')} />;

  const search = (value: string) => {
    const v = value.trim();
    const next: DeviceListParams = {
      page: 1,
      pageSize: params.pageSize,
      sort: params.sort,
      order: params.order,
    };
    if (v) {
      if (field === 'all') next.q = v;
      else if (field === 'port' || field === 'vlan') {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) {
          showError(t('devices.searchNumber'));
          return;
        }
        next[field] = n;
      } else next[field] = v;
    }
    setParams(next);
  };

  const onTableChange: TableProps<DeviceView>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setParams((p) => ({
      ...p,
      page: pagination.current ?? 1,
      pageSize: pagination.pageSize ?? p.pageSize,
      sort: s?.order ? (String(s.columnKey ?? s.field) as DeviceListParams['sort']) : 'name',
      order: s?.order === 'descend' ? 'desc' : 'asc',
    }));
  };

  const sortOrder = (key: string) =>
    params.sort === key ? (params.order === 'desc' ? ('descend' as const) : ('ascend' as const)) : null;

  const allColumns: NonNullable<TableProps<DeviceView>['columns']> = [
    {
      key: 'name',
      title: t('devices.col.name'),
      fixed: 'left',
      width: phone ? 150 : 200,
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Button
            type="link"
            style={{ padding: 0 }}
            onClick={() => setDrawerSn(d.sn)}
            data-testid={`device-open-${d.sn}`}
          >
            <span style={{ whiteSpace: 'nowrap' }}>{d.name}</span>
          </Button>
          {d.remark ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.remark}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'model',
      dataIndex: 'model',
      title: t('devices.col.model'),
      sorter: true,
      sortOrder: sortOrder('model'),
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('devices.col.type'),
      sorter: true,
      sortOrder: sortOrder('type'),
      render: (v: string) => t(`devices.type.${v}`),
    },
    { key: 'mac', dataIndex: 'mac', title: t('devices.col.mac'), sorter: true, sortOrder: sortOrder('mac') },
    { key: 'sn', dataIndex: 'sn', title: t('devices.col.sn'), sorter: true, sortOrder: sortOrder('sn') },
    { key: 'firmware', dataIndex: 'firmware', title: t('devices.col.firmware') },
    { key: 'ip', dataIndex: 'ip', title: t('devices.col.ip'), sorter: true, sortOrder: sortOrder('ip') },
    {
      key: 'status',
      title: t('devices.col.status'),
      sorter: true,
      sortOrder: sortOrder('status'),
      render: (_, d) => <StatusBadge device={d} />,
    },
    {
      key: 'managementMode',
      title: t('devices.col.mode'),
      render: (_, d) =>
        d.managementMode === 0 ? <Tag color="orange">{t('devices.local')}</Tag> : t('devices.cloud'),
    },
    {
      key: 'uplink',
      title: t('devices.col.uplink'),
      render: (_, d) =>
        d.uplink ? (
          `${d.uplink.sn}${d.uplink.port ? ` / ${d.uplink.port}` : ''}`
        ) : (
          // The device names its uplink itself (telemetry); "—" is what it reported, not a fault.
          <Tooltip title={t('devices.noUplink')}>
            <span data-testid={`device-uplink-none-${d.sn}`}>
              <span aria-hidden>{t('common.none')}</span>
              <span className="visually-hidden">{t('devices.noUplink')}</span>
            </span>
          </Tooltip>
        ),
    },
    {
      key: 'clientCount',
      dataIndex: 'clientCount',
      title: t('devices.col.clients'),
      sorter: true,
      sortOrder: sortOrder('clientCount'),
    },
    {
      key: 'poe',
      title: t('devices.col.poe'),
      render: (_, d) => (d.poe ? `${d.poe.used.toFixed(1)} / ${d.poe.total} W` : t('common.none')),
    },
    {
      key: 'meshRole',
      title: t('devices.col.meshRole'),
      render: (_, d) => (d.meshRole ? t(`devices.mesh.${d.meshRole}`) : t('common.none')),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      // On a phone a fixed column on each side would leave no room to scroll the rest.
      fixed: phone ? undefined : 'right',
      width: 96,
      render: (_, d) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          onClick={() => setDrawerSn(d.sn)}
          data-testid={`device-manage-${d.sn}`}
        >
          {t('devices.manage')}
        </Button>
      ),
    },
  ];

  const columns = allColumns.filter(
    (c) => !OPTIONAL_COLUMNS.includes(c.key as never) || columnChoice.shown.has(c.key as string),
  );

  const blockedTip = writable
    ? undefined
    : t(current.isDemo ? 'project.demoNoWrite' : 'project.readOnlyNoWrite');

  return (
    <>
      <PageTitle
        title={t('route.maintenance')}
        extra={
          <Space>
            <Tooltip title={live ? t('devices.live') : t('devices.notLive')}>
              <Badge status={live ? 'success' : 'default'} data-testid="live-indicator" />
            </Tooltip>
            <Tooltip title={blockedTip}>
              <Button
                icon={<UploadOutlined />}
                onClick={() => setImportOpen(true)}
                disabled={!writable}
                data-testid="import-devices"
              >
                {t('devices.import')}
              </Button>
            </Tooltip>
            <Tooltip title={blockedTip}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setAddOpen(true)}
                disabled={!writable}
                data-testid="add-device"
              >
                {t('devices.add')}
              </Button>
            </Tooltip>
          </Space>
        }
      />
      {!writable ? (
        <Alert
          type="info"
          showIcon
          message={blockedTip}
          style={{ marginBottom: 12 }}
          data-testid="devices-readonly"
        />
      ) : null}
      <Card ref={tableBox}>
        <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
          <Space.Compact>
            <Select
              value={field}
              onChange={setField}
              style={{ width: phone ? 110 : 130 }}
              aria-label={t('devices.searchField')}
              data-testid="device-search-field"
              options={SEARCH_FIELDS.map((f) => ({ value: f, label: t(`devices.search.${f}`) }))}
            />
            <Input.Search
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              onSearch={search}
              allowClear
              aria-label={t('devices.searchPlaceholder')}
              placeholder={t('devices.searchPlaceholder')}
              style={{ width: phone ? 'calc(100vw - 170px)' : 280 }}
              data-testid="device-search"
            />
          </Space.Compact>
          <Space wrap>
            <span data-testid="devices-selected">
              {t('devices.selected', { count: selectedKeys.length })}
            </span>
            {selectedKeys.length > 0 ? (
              <Button
                type="link"
                size="small"
                onClick={() => {
                  setSelectedKeys([]);
                  setSeen(new Map());
                }}
                data-testid="devices-clear-selection"
              >
                {t('devices.clearSelection')}
              </Button>
            ) : null}
            <BulkActions projectId={current.id} selected={selected} writable={writable} />
            <DeviceExportButton projectId={current.id} />
            <Tooltip title={t('common.refresh')}>
              <Button
                icon={<ReloadOutlined />}
                aria-label={t('common.refresh')}
                onClick={() => list.refetch()}
                data-testid="devices-refresh"
              />
            </Tooltip>
            <ColumnChooser
              columns={OPTIONAL_COLUMNS.map((key) => ({ key, title: t(COLUMN_TITLE_KEYS[key]) }))}
              shown={columnChoice.shown}
              onChange={columnChoice.choose}
              defaults={DEFAULT_COLUMNS}
              testId="device-columns"
            />
          </Space>
        </Space>
        <Table<DeviceView>
          rowKey="sn"
          size="small"
          scroll={{ x: 'max-content' }}
          loading={list.isFetching && !list.data}
          dataSource={list.data?.items ?? []}
          columns={columns}
          onChange={onTableChange}
          data-testid="device-table"
          onRow={(d) => ({ 'data-testid': `device-row-${d.sn}` }) as object}
          sticky={{ getContainer: contentScroller }}
          rowSelection={{
            fixed: true,
            preserveSelectedRowKeys: true,
            selectedRowKeys: selectedKeys,
            onChange: (keys, rows) => {
              const sns = keys as string[];
              setSelectedKeys(sns);
              setSeen((known) => rememberRows(known, sns, rows));
            },
          }}
          pagination={{
            current: params.page,
            pageSize: params.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('devices.total', { count: total }),
          }}
          locale={{
            emptyText: list.isError ? (
              errorText(list.error)
            ) : (
              <Space direction="vertical">
                <span>{t('devices.empty')}</span>
                {writable ? (
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => setAddOpen(true)}
                    data-testid="add-device-empty"
                  >
                    {t('devices.add')}
                  </Button>
                ) : null}
              </Space>
            ),
          }}
        />
      </Card>
      <DeviceDrawer
        projectId={current.id}
        sn={drawerSn}
        writable={writable}
        onClose={() => setDrawerSn(null)}
      />
      <AddDeviceModal projectId={current.id} open={addOpen} onClose={() => setAddOpen(false)} />
      <ImportModal projectId={current.id} open={importOpen} onClose={() => setImportOpen(false)} />
    </>
  );
}

/** The catalogue's models grouped by device type, for pre-provisioning a device. */
function useModelOptions() {
  const { t } = useTranslation();
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const m of MODEL_CATALOGUE) {
    const list = groups.get(m.type) ?? [];
    list.push({ value: m.model, label: `${m.model} · ${m.description}` });
    groups.set(m.type, list);
  }
  return [...groups].map(([type, options]) => ({ label: t(`devices.type.${type}`), options }));
}

function AddDeviceModal({
  projectId,
  open,
  onClose,
}: {
  projectId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ sn: string; model?: string; name?: string }>();
  const { busy, run } = useFormSubmit(form);
  const modelOptions = useModelOptions();
  // OK goes through the form's own submit: a field that fails its rule stops there, shown on the
  // field, instead of rejecting a promise nobody awaits (antd's Modal ignores onOk's result).
  const submit = async (values: { sn: string; model?: string; name?: string }) => {
    // The body the server validates, checked with the same schema before it is sent.
    const body = parseForm(
      AddDeviceBody,
      {
        sn: values.sn.trim(),
        ...(values.model ? { model: values.model } : {}),
        ...(values.name?.trim() ? { name: values.name.trim() } : {}),
      },
      form,
    );
    if (!body) return;
    await run(async () => {
      await devicesApi.add(projectId, body);
      showSuccess(t('devices.added'));
      queryClient.invalidateQueries({ queryKey: devicesKey(projectId) });
      form.resetFields();
      onClose();
    });
  };
  return (
    <Modal
      open={open}
      title={t('devices.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('common.add')}
      okButtonProps={{ 'data-testid': 'add-device-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
        <Form.Item
          name="sn"
          label={t('devices.sn')}
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const failure = validateSn((v ?? '').trim());
                return failure ? Promise.reject(new Error(failure.message)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input data-testid="add-device-sn" autoFocus placeholder={t('devices.snPlaceholder')} />
        </Form.Item>
        <Form.Item name="model" label={t('devices.modelOptional')} extra={t('devices.modelHelp')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('devices.modelPlaceholder')}
            options={modelOptions}
            data-testid="add-device-model"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('devices.nameOptional')}
          rules={[checkRule(validateDeviceName, true)]}
        >
          <Input data-testid="add-device-name" maxLength={DEVICE_NAME_MAX} />
        </Form.Item>
        <EnterSubmits />
      </Form>
    </Modal>
  );
}

function ImportModal({
  projectId,
  open,
  onClose,
}: {
  projectId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<ImportResultView | null>(null);
  const upload = async (file: File) => {
    const ext = file.name.split('.').pop()?.toLowerCase();
    if (ext !== 'xls' && ext !== 'xlsx') {
      showError(t('devices.importFormat'));
      return;
    }
    try {
      const res = await withLoadState('uploading', () => devicesApi.import(projectId, file));
      setResult(res);
      queryClient.invalidateQueries({ queryKey: devicesKey(projectId) });
    } catch (e) {
      showError(errorText(e));
    }
  };
  return (
    <Modal
      open={open}
      title={t('devices.import')}
      onCancel={() => {
        setResult(null);
        onClose();
      }}
      footer={null}
      width={640}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <span>{t('devices.importHelp')}</span>
        <Space>
          <Button icon={<DownloadOutlined />} href={devicesApi.templateUrl} data-testid="import-template">
            {t('devices.template')}
          </Button>
          <Upload
            accept=".xls,.xlsx"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} data-testid="import-file">
              {t('devices.chooseFile')}
            </Button>
          </Upload>
        </Space>
        {result ? (
          <>
            <Alert
              type="info"
              showIcon
              message={t('devices.importSummary', { added: result.added, total: result.total })}
            />
            <Table
              rowKey="row"
              size="small"
              pagination={false}
              dataSource={result.rows}
              data-testid="import-results"
              scroll={{ y: 300 }}
              columns={[
                { key: 'row', dataIndex: 'row', title: t('devices.importRow'), width: 70 },
                { key: 'sn', dataIndex: 'sn', title: t('devices.col.sn') },
                {
                  key: 'result',
                  title: t('devices.result'),
                  render: (_, r) => (
                    <Tag color={r.result === 'added' ? 'green' : 'red'}>
                      {t(`devices.importResult.${r.result}`)}
                    </Tag>
                  ),
                },
                { key: 'message', dataIndex: 'message', title: t('devices.message') },
              ]}
            />
          </>
        ) : null}
      </Space>
    </Modal>
  );
}
