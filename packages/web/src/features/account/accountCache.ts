import type { AccountView } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { SESSION_KEY } from '../../session/session.ts';
import { storage } from '../../storage/storage.ts';

export const ACCOUNT_KEY = ['account'] as const;
export const API_KEYS_KEY = ['account', 'api-keys'] as const;

/** After the account was saved: the cached account, the session and the remembered nick follow. */
export function useAccountSaved() {
  const queryClient = useQueryClient();
  return (updated: AccountView) => {
    queryClient.setQueryData(ACCOUNT_KEY, updated);
    queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    storage.setLastNick(updated.nick);
  };
}
