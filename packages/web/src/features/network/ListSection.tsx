import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { NetworkCheck, NetworkDocumentInput, NetworkView } from '@beacon/protocol';
import {
  Alert,
  Button,
  Card,
  Form,
  type FormInstance,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  type TableProps,
} from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SectionProps } from './NetworkPage.tsx';
import { checkDocument } from './useNetwork.ts';

export interface ListSectionProps<T, V> extends SectionProps {
  /** For test ids and texts: vlan, dhcp, route, mapping. */
  kind: string;
  items: T[];
  rowKey: (item: T) => string;
  columns: NonNullable<TableProps<T>['columns']>;
  /** Text searched by the filter box. */
  searchText: (item: T) => string;
  /** The document with this list replaced. */
  withItems: (items: T[]) => NetworkDocumentInput;
  /** The path prefix of this list in the document (e.g. `vlans`), to place a failure on its field. */
  listPath: string;
  toValues: (item: T | null) => V;
  /** The item the form describes, or several (a VLAN add with a list of ids such as 10-13). */
  fromValues: (values: V) => T | T[];
  fields: (form: FormInstance<V>, view: NetworkView) => ReactNode;
}

/**
 * One list of the network document (VLANs, DHCP pools, static routes, port mappings) as a table
 * with add, edit and delete. The form in the modal is checked as the user types with the rules the
 * server applies to the whole document; a change is saved as the next revision (NetworkPage.apply).
 */
export function ListSection<T, V extends object>(props: ListSectionProps<T, V>) {
  const { t } = useTranslation();
  const { kind, items, view, writable, apply } = props;
  const [editing, setEditing] = useState<{ index: number | null } | null>(null);
  const [failure, setFailure] = useState<NetworkCheck>(null);
  const [saving, setSaving] = useState(false);
  const [filter, setFilter] = useState('');
  const [form] = Form.useForm<V>();

  const open = (index: number | null) => {
    form.resetFields();
    form.setFieldsValue(props.toValues(index === null ? null : items[index]) as never);
    setFailure(null);
    setEditing({ index });
  };

  const candidate = (values: V): NetworkDocumentInput => {
    const next = [...items];
    const made = props.fromValues(values);
    const added = Array.isArray(made) ? made : [made];
    if (editing?.index === null || editing === null) next.push(...added);
    else next.splice(editing.index, 1, ...added);
    return props.withItems(next);
  };

  const onValuesChange = () => {
    const values = form.getFieldsValue(true) as V;
    const f = checkDocument(view, candidate(values));
    // Only failures of this list's item matter while typing (others were there before).
    setFailure(f?.path.startsWith(props.listPath) ? f : null);
  };

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const saved = await apply(candidate({ ...(form.getFieldsValue(true) as V), ...values }));
    setSaving(false);
    if (saved) setEditing(null);
  };

  const remove = (index: number) => apply(props.withItems(items.filter((_, i) => i !== index)));

  const shown = useMemo(
    () =>
      items
        .map((item, index) => ({ item, index }))
        .filter(({ item }) => props.searchText(item).toLowerCase().includes(filter.trim().toLowerCase())),
    [items, filter, props.searchText],
  );

  const columns: TableProps<{ item: T; index: number }>['columns'] = [
    ...(props.columns.map((c) => ({
      ...c,
      // The table rows are {item, index}: each column reads from the item.
      render: (_: unknown, row: { item: T; index: number }) => {
        const key = (c as { dataIndex?: string }).dataIndex;
        const render = (c as { render?: (v: unknown, item: T, i: number) => ReactNode }).render;
        const value = key ? (row.item as Record<string, unknown>)[key] : undefined;
        return render ? render(value, row.item, row.index) : (value as ReactNode);
      },
      sorter: (c as { sorter?: (a: T, b: T) => number }).sorter
        ? (a: { item: T }, b: { item: T }) => (c as { sorter: (a: T, b: T) => number }).sorter(a.item, b.item)
        : undefined,
    })) as NonNullable<TableProps<{ item: T; index: number }>['columns']>),
    {
      title: t('network.actions'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space>
          <Button
            size="small"
            icon={<EditOutlined />}
            disabled={!writable}
            onClick={() => open(row.index)}
            aria-label={t('network.edit')}
            data-testid={`${kind}-edit-${row.index}`}
          />
          <Popconfirm
            title={t('network.deleteConfirm')}
            okText={t('network.delete')}
            cancelText={t('network.cancel')}
            onConfirm={() => remove(row.index)}
            disabled={!writable}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!writable}
              aria-label={t('network.delete')}
              data-testid={`${kind}-delete-${row.index}`}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t(`network.${kind}.title`)}
      extra={
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('network.filter')}
            aria-label={t('network.filter')}
            onChange={(e) => setFilter(e.target.value)}
            style={{ width: 180 }}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!writable}
            onClick={() => open(null)}
            data-testid={`${kind}-add`}
          >
            {t('network.add')}
          </Button>
        </Space>
      }
    >
      <Table
        size="small"
        rowKey={(row) => props.rowKey(row.item)}
        columns={columns}
        dataSource={shown}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`network.${kind}.empty`) }}
        data-testid={`${kind}-table`}
      />
      <Modal
        open={editing !== null}
        title={t(editing?.index === null ? `network.${kind}.add` : `network.${kind}.edit`)}
        onCancel={() => setEditing(null)}
        onOk={submit}
        okText={t('network.save')}
        cancelText={t('network.cancel')}
        okButtonProps={{ loading: saving, disabled: !!failure, 'data-testid': `${kind}-submit` } as never}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onValuesChange={onValuesChange} data-testid={`${kind}-form`}>
          {props.fields(form, view)}
        </Form>
        {failure && (
          <Alert
            type="error"
            showIcon
            message={`${failure.message} (${failure.code})`}
            data-testid={`${kind}-check`}
          />
        )}
      </Modal>
    </Card>
  );
}
