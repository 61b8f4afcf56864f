import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { commandStage, type ShownCommand } from './commandStage.ts';

/**
 * A command's result as a tag: "Accepted" while a reboot, reset or upgrade is still being carried
 * out, then its final outcome (back online, upgraded, or the failure) — never "Success" for a
 * device that has only said it will do it.
 */
export function CommandResult({ command: c }: { command: ShownCommand }) {
  const { t } = useTranslation();
  const stage = commandStage(c);
  const failure = c.final && c.final.state !== 'pending' && c.final.state !== 'done' ? c.final : c;
  const common = { 'data-testid': 'command-result', 'data-stage': stage };
  switch (stage) {
    case 'sent':
      return (
        <Tag color="blue" {...common}>
          {t('devices.commandState.sent')}
        </Tag>
      );
    case 'success':
      return (
        <Tag color="green" {...common}>
          {t('devices.commandState.success')}
        </Tag>
      );
    case 'accepted':
      return (
        <Tooltip title={t('devices.final.pendingHelp')}>
          <Tag color="processing" {...common}>
            {t('devices.commandState.accepted')}
          </Tag>
        </Tooltip>
      );
    case 'done':
      return (
        <Tag color="green" {...common}>
          {t(`devices.final.done.${c.name}`, { defaultValue: t('devices.commandState.success') })}
        </Tag>
      );
    case 'failed':
      return (
        <Tag color="red" {...common}>
          {`${failure.code ?? ''}: ${failure.message ?? ''}`}
        </Tag>
      );
  }
}
