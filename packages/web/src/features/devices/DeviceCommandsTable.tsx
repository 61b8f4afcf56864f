import type { CommandView } from '@beacon/protocol';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { CommandResult } from './CommandResult.tsx';

/** The device's recent commands, each with its outcome (and final outcome, CommandResult). */
export function DeviceCommandsTable({ commands, projectId }: { commands: CommandView[]; projectId: number }) {
  const { t } = useTranslation();
  const time = useProjectTime(projectId);
  return (
    <Table<CommandView>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={commands}
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
  );
}
