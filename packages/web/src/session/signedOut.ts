import type { QueryClient } from '@tanstack/react-query';
import { isApiError, isSignedOutError } from '../api/client.ts';

/** What a screen behind the sign-in shows for the state of the session query. */
export type SessionGate = 'shell' | 'wait' | 'login' | 'error';

/**
 * RequireSession and PublicOnly decide with this. React Query keeps the last session when a refetch
 * fails, so a signed-out answer (401 with 9, 10, 70 or 5003) wins over cached data; any other failure
 * of a refetch (network, server error) keeps the shell. Without data, any 401 goes to the login.
 */
export function sessionGate(state: { data: unknown; error: unknown }): SessionGate {
  if (isSignedOutError(state.error)) return 'login';
  if (state.data) return 'shell';
  if (state.error === null || state.error === undefined) return 'wait';
  return isApiError(state.error) && state.error.status === 401 ? 'login' : 'error';
}

/**
 * After a signed-out answer: every cached answer goes, the session included (setQueryData(key,
 * undefined) would keep it: React Query 5 ignores an undefined update). The stored values (current
 * project, last account) stay for the next login.
 */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.removeQueries();
}
