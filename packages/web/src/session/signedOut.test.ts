import { Codes, type SessionView } from '@beacon/protocol';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { SESSION_KEY } from './session.ts';
import { forgetSession, sessionGate } from './signedOut.ts';

const session = { account: { account: 'a@example.com' } } as unknown as SessionView;
const answer = (status: number, code: number) => new ApiError({ kind: 'server', code, status, message: 'm' });

/** The session query's state after a first answer `session` and a refetch that fails with `error`. */
async function refetchFails(error: unknown) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await queryClient.fetchQuery({ queryKey: SESSION_KEY, queryFn: async () => session });
  await queryClient
    .fetchQuery({
      queryKey: SESSION_KEY,
      queryFn: async () => {
        throw error;
      },
      staleTime: 0,
    })
    .catch(() => undefined);
  const state = queryClient.getQueryState(SESSION_KEY);
  return { queryClient, state: { data: state?.data, error: state?.error ?? null } };
}

describe('session gate (RequireSession, PublicOnly)', () => {
  it('React Query keeps the old session when its refetch fails', async () => {
    const { state } = await refetchFails(answer(401, Codes.PASSWORD_MODIFIED));
    expect(state.data).toBe(session);
    expect(state.error).toBeInstanceOf(ApiError);
  });

  it.each([Codes.TOKEN_MISSING, Codes.TOKEN_OLD, Codes.PASSWORD_MODIFIED])(
    'a refetch answering 401 with %i signs out even with the old session cached',
    async (code) => {
      const { state } = await refetchFails(answer(401, code));
      expect(sessionGate(state)).toBe('login');
    },
  );

  it('a refetch that fails otherwise keeps the shell (network failure, server error)', async () => {
    const network = await refetchFails(new ApiError({ kind: 'network', code: null, message: 'm' }));
    expect(sessionGate(network.state)).toBe('shell');
    const server = await refetchFails(answer(500, Codes.SERVER));
    expect(sessionGate(server.state)).toBe('shell');
  });

  it.each([
    [{ data: session, error: null }, 'shell'],
    [{ data: undefined, error: null }, 'wait'],
    [{ data: undefined, error: answer(401, Codes.TOKEN_MISSING) }, 'login'],
    [{ data: undefined, error: answer(401, Codes.PASSWORD_MODIFIED) }, 'login'],
    [{ data: undefined, error: answer(401, 3) }, 'login'],
    [{ data: undefined, error: answer(500, Codes.SERVER) }, 'error'],
    [{ data: undefined, error: new ApiError({ kind: 'network', code: null, message: 'm' }) }, 'error'],
  ] as const)('%o → %s', (state, expected) => expect(sessionGate(state)).toBe(expected));
});

describe('forgetSession (AuthWatcher)', () => {
  it('drops every cached answer, the session included', async () => {
    const { queryClient } = await refetchFails(answer(401, Codes.PASSWORD_MODIFIED));
    queryClient.setQueryData(['projects', 1], { id: 1 });
    forgetSession(queryClient);
    expect(queryClient.getQueryData(SESSION_KEY)).toBeUndefined();
    expect(queryClient.getQueryState(SESSION_KEY)).toBeUndefined();
    expect(queryClient.getQueryData(['projects', 1])).toBeUndefined();
  });

  it('setQueryData(key, undefined) would not have: React Query 5 ignores an undefined update', async () => {
    const { queryClient } = await refetchFails(answer(401, Codes.PASSWORD_MODIFIED));
    queryClient.setQueryData(SESSION_KEY, undefined);
    expect(queryClient.getQueryData(SESSION_KEY)).toBe(session);
  });
});
