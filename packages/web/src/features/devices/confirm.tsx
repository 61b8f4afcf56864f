import { App as AntApp, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { minutes } from './durations.ts';

/**
 * The confirmation before a maintenance action: what happens, how long the device is busy
 * (SPEC.md §9), and an optional note (e.g. how many selected devices will be refused).
 */
export function useActionConfirm() {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  return ({
    title,
    text,
    seconds,
    danger,
    note,
    onOk,
  }: {
    title: string;
    text: string;
    seconds: number;
    danger?: boolean;
    note?: ReactNode;
    onOk(): Promise<unknown>;
  }) =>
    modal.confirm({
      title,
      content: (
        <>
          <span data-testid="confirm-text">
            {text}
            {seconds > 0 ? ` ${t('devices.expectedDuration', { count: minutes(seconds) })}` : ''}
          </span>
          {note}
        </>
      ),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok', danger } as ButtonProps,
      width: 400,
      onOk,
    });
}
