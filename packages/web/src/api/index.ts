import type {
  AccountView,
  ApiKeyView,
  AuditView,
  ChangePasswordBody,
  CreateProjectBody,
  LoginBody,
  ProjectListQuery,
  ProjectView,
  ResetPasswordBody,
  ScenarioBody,
  ScenarioView,
  SendCodeBody,
  SessionView,
  SignUpBody,
  UpdateProfileBody,
  UpdateProjectBody,
} from '@beacon/protocol';
import { storage } from '../storage/storage.ts';
import { type ApiError, createClient, isSignedOutError } from './client.ts';

export { ApiError, isApiError, isSignedOutError } from './client.ts';

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface ApiKeyCreatedView extends ApiKeyView {
  key: string;
}

type FailureListener = (e: ApiError, path: string) => void;
const failureListeners = new Set<FailureListener>();
/** Hears every failed answer with its call's path (e.g. a lost project: session/projectLoss.ts). */
export function onFailure(listener: FailureListener): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

/** Hears the answers that mean this browser is signed out (401 with 9, 10, 70 or 5003). */
export function onUnauthorized(listener: (e: ApiError) => void): () => void {
  return onFailure((e) => {
    if (isSignedOutError(e)) listener(e);
  });
}

export const client = createClient({
  baseUrl: '/api/v1',
  fetch: (input, init) => globalThis.fetch(input, init),
  getToken: () => (storage.getAccessType() === 'openapi' ? storage.getToken() : null),
  onFailure: (e, path) => {
    for (const l of failureListeners) l(e, path);
  },
});

export const api = {
  sendCode: (body: SendCodeBody) => client.post<unknown>('/auth/codes', body),
  signUp: (body: SignUpBody) => client.post<SessionView>('/auth/signup', body),
  login: (body: LoginBody) => client.post<SessionView>('/auth/login', body),
  logout: () => client.post<unknown>('/auth/logout'),
  resetPassword: (body: ResetPasswordBody) => client.post<unknown>('/auth/reset', body),
  session: () => client.get<SessionView>('/auth/session'),

  account: () => client.get<AccountView>('/account'),
  updateAccount: (body: UpdateProfileBody) => client.patch<AccountView>('/account', body),
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return client.upload<AccountView>('/account/avatar', form);
  },
  changePassword: (body: ChangePasswordBody) => client.post<unknown>('/account/password', body),
  scenarios: () => client.get<ScenarioView[]>('/account/scenarios'),
  addScenario: (body: ScenarioBody) => client.post<ScenarioView>('/account/scenarios', body),
  deleteScenario: (id: number) => client.del<unknown>(`/account/scenarios/${id}`),
  apiKeys: () => client.get<ApiKeyView[]>('/account/api-keys'),
  createApiKey: (body: { name: string }) => client.post<ApiKeyCreatedView>('/account/api-keys', body),
  deleteApiKey: (id: number) => client.del<unknown>(`/account/api-keys/${id}`),

  projects: (query: Partial<ProjectListQuery>) =>
    client.get<Paged<ProjectView>>('/projects', { query: query as Record<string, string | number> }),
  project: (id: number) => client.get<ProjectView>(`/projects/${id}`),
  createProject: (body: CreateProjectBody) => client.post<ProjectView>('/projects', body),
  updateProject: (id: number, body: UpdateProjectBody) => client.patch<ProjectView>(`/projects/${id}`, body),
  deleteProject: (id: number) => client.del<unknown>(`/projects/${id}`),
  projectLogs: (id: number, query: { page?: number; pageSize?: number }) =>
    client.get<Paged<AuditView>>(`/projects/${id}/logs`, { query }),
};
