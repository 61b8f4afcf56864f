import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/session.ts';
import { storage } from '../storage/storage.ts';

export interface ChoosableColumn {
  key: string;
  title: string;
}

/**
 * Which of a table's optional columns show, saved per account in client storage (SPEC.md §3,
 * table shrink settings). Columns the table adds later are shown to accounts that chose before
 * only if they are in the defaults; a stored key the table no longer has is ignored.
 */
export function useColumnChoice(table: string, optional: readonly string[], defaults: readonly string[]) {
  const account = useSession().data?.account.account ?? '';
  const [chosen, setChosen] = useState<string[] | null>(() => storage.getTableColumns(account, table));
  const shown = new Set((chosen ?? defaults).filter((k) => optional.includes(k)));
  const choose = useCallback(
    (keys: string[]) => {
      setChosen(keys);
      if (account) storage.setTableColumns(account, table, keys);
    },
    [account, table],
  );
  return { shown, choose };
}

export function ColumnChooser({
  columns,
  shown,
  onChange,
  defaults,
  testId,
}: {
  columns: readonly ChoosableColumn[];
  shown: ReadonlySet<string>;
  onChange: (keys: string[]) => void;
  defaults: readonly string[];
  testId: string;
}) {
  const { t } = useTranslation();
  const content = (
    <Space direction="vertical" size={4} data-testid={`${testId}-panel`}>
      <Checkbox.Group
        value={columns.filter((c) => shown.has(c.key)).map((c) => c.key)}
        onChange={(keys) => onChange(keys as string[])}
        style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
        options={columns.map((c) => ({
          value: c.key,
          label: <span data-testid={`${testId}-${c.key}`}>{c.title}</span>,
        }))}
      />
      <Button size="small" type="link" style={{ padding: 0 }} onClick={() => onChange([...defaults])}>
        {t('table.defaultColumns')}
      </Button>
    </Space>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('table.columns')} content={content}>
      <Button icon={<SettingOutlined />} aria-label={t('table.columns')} data-testid={testId} />
    </Popover>
  );
}
