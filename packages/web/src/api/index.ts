import {
  ACCOUNT_ROUTES,
  type AcceptInvitationBody,
  type ApiKeyBody,
  AUTH_ROUTES,
  type ChangePasswordBody,
  type CreateProjectBody,
  type LoginBody,
  PROJECT_ROUTES,
  type ResetPasswordBody,
  type RouteQuery,
  type RouteResponse,
  type ScenarioBody,
  type SendCodeBody,
  type SignUpBody,
  type UpdateProfileBody,
  type UpdateProjectBody,
} from '@beacon/protocol';
import { storage } from '../storage/storage.ts';
import { type ApiError, createClient, isSignedOutError } from './client.ts';
import { callRoute, uploadToRoute } from './route.ts';

export { ApiError, isApiError, isSignedOutError } from './client.ts';

/** A new API key with its secret (shown once): the answer of ACCOUNT_ROUTES.createApiKey. */
export type ApiKeyCreatedView = RouteResponse<typeof ACCOUNT_ROUTES.createApiKey>;

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

const A = AUTH_ROUTES;
const Acc = ACCOUNT_ROUTES;
const P = PROJECT_ROUTES;

/** The auth, account and project routes, from their protocol tables (paths and answer types). */
export const api = {
  sendCode: (body: SendCodeBody) => callRoute(A.sendCode, {}, { body }),
  signUp: (body: SignUpBody) => callRoute(A.signUp, {}, { body }),
  login: (body: LoginBody) => callRoute(A.login, {}, { body }),
  logout: () => callRoute(A.logout, {}),
  resetPassword: (body: ResetPasswordBody) => callRoute(A.resetPassword, {}, { body }),
  acceptInvitation: (body: AcceptInvitationBody) => callRoute(A.acceptInvitation, {}, { body }),
  session: () => callRoute(A.session, {}),

  account: () => callRoute(Acc.get, {}),
  updateAccount: (body: UpdateProfileBody) => callRoute(Acc.update, {}, { body }),
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return uploadToRoute(Acc.uploadAvatar, {}, form);
  },
  changePassword: (body: ChangePasswordBody) => callRoute(Acc.changePassword, {}, { body }),
  scenarios: () => callRoute(Acc.scenarios, {}),
  addScenario: (body: ScenarioBody) => callRoute(Acc.addScenario, {}, { body }),
  deleteScenario: (id: number) => callRoute(Acc.deleteScenario, { id }),
  apiKeys: () => callRoute(Acc.apiKeys, {}),
  createApiKey: (body: ApiKeyBody) => callRoute(Acc.createApiKey, {}, { body }),
  deleteApiKey: (id: number) => callRoute(Acc.deleteApiKey, { id }),

  projects: (query: RouteQuery<typeof P.list>) => callRoute(P.list, {}, { query }),
  project: (id: number) => callRoute(P.get, { id }),
  createProject: (body: CreateProjectBody) => callRoute(P.create, {}, { body }),
  updateProject: (id: number, body: UpdateProjectBody) => callRoute(P.update, { id }, { body }),
  deleteProject: (id: number) => callRoute(P.remove, { id }),
  projectLogs: (id: number, query: RouteQuery<typeof P.auditLog>) => callRoute(P.auditLog, { id }, { query }),
};
