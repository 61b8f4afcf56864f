import { Codes } from '@beacon/protocol';
import { App as AntApp, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/index.ts';
import { errorText, showError } from '../../state/feedback.ts';

/**
 * Runs a write that the server may refuse because it would overwrite (5362: the oldest of the 128
 * general backups; 5363: a device's restore point): the user is told what goes, and only when they
 * go on is it sent again with confirmOverwrite (SPEC.md §9, "the user is told before").
 */
export function useOverwriteConfirm() {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  return async <T,>(run: (confirmOverwrite: boolean) => Promise<T>): Promise<T | null> => {
    try {
      return await run(false);
    } catch (e) {
      if (!isApiError(e) || (e.code !== Codes.BACKUP_OVERWRITE && e.code !== Codes.RESTORE_POINT_EXISTS)) {
        showError(errorText(e));
        return null;
      }
      const go = await modal.confirm({
        title:
          e.code === Codes.BACKUP_OVERWRITE
            ? t('backup.confirm.overwriteTitle')
            : t('backup.confirm.restorePointTitle'),
        content: <span data-testid="backup-overwrite-text">{e.message}</span>,
        okText: t('backup.confirm.go'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: true, 'data-testid': 'backup-overwrite-ok' } as ButtonProps,
      });
      if (!go) return null;
      try {
        return await run(true);
      } catch (again) {
        showError(errorText(again));
        return null;
      }
    }
  };
}
