import type { App } from 'antd';
import { lastError } from './store.ts';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

let messageApi: MessageInstance | null = null;

/** Set from inside antd's <App> so toasts follow the theme. */
export function setMessageApi(api: MessageInstance | null): void {
  messageApi = api;
}

export function showError(text: string): void {
  lastError.set(text);
  messageApi?.error(text);
}

export function showSuccess(text: string): void {
  messageApi?.success(text);
}

export function errorText(e: unknown): string {
  if (e instanceof Error && e.message) return e.message;
  return String(e);
}
