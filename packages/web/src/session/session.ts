import { AccessType, type GateContext, landingPath, NetMode, type SessionView } from '@beacon/protocol';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api/index.ts';
import { storage } from '../storage/storage.ts';
import { currentProject } from './currentProject.ts';

export const SESSION_KEY = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: api.session,
    retry: false,
    staleTime: 60_000,
    meta: { silent: true },
  });
}

/** What the navigation gate needs: access type, the current project's netMode, the session's flags. */
export function gateContext(session: SessionView, netMode: number | undefined): GateContext {
  const access = session.accessType === AccessType.OPENAPI ? AccessType.OPENAPI : storage.getAccessType();
  return {
    access,
    netMode: netMode === NetMode.MESH ? NetMode.MESH : NetMode.WLAN,
    flags: session.flags,
  };
}

export function landingFor(session: SessionView): string | null {
  return landingPath(gateContext(session, currentProject.get()?.netMode));
}

/** Remembers the last login account and nickname (stored encoded, SPEC.md §3). */
export function rememberLogin(session: SessionView): void {
  storage.setLastAccount(session.account.account);
  storage.setLastNick(session.account.nick);
}

/** After login or sign-up: web access, the remembered account, the session in the cache. */
export function useStartSession(): (session: SessionView) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (session: SessionView) => {
      storage.setAccessType('web');
      rememberLogin(session);
      queryClient.setQueryData(SESSION_KEY, session);
    },
    [queryClient],
  );
}

/** Local part of logging out: clears the stored values of SPEC.md §4 and every cached answer. */
export function clearLocalSession(queryClient: QueryClient): void {
  storage.clearOnLogout();
  currentProject.set(null);
  queryClient.cancelQueries();
  queryClient.removeQueries();
}

/** Logs out on the server (errors ignored: the local session ends either way) and locally. */
export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await api.logout();
  } catch {
    // already logged out or offline
  }
  clearLocalSession(queryClient);
}
