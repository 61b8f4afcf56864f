import { z } from 'zod';
import {
  ApiKeyBody,
  ApiKeyCreated,
  ApiKeyView,
  ChangePasswordBody,
  ScenarioBody,
  ScenarioView,
  UpdateProfileBody,
} from './account.ts';
import { AccountView } from './auth.ts';
import { ID_MAX, IdParam } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

/** Path parameters of a route naming one thing by its id: /accounts/{id}, /account/scenarios/{id}. */
export const IdParams = z.object({ id: IdParam });
/** `v`: the avatar's version; a versioned address never changes content (cached for a year). */
export const AvatarQuery = z.object({ v: z.coerce.number().int().min(0).max(ID_MAX).optional() });

/** The calling account: profile, avatar, password, scenarios, API keys (server accounts/, web features/account). */
export const ACCOUNT_ROUTES = {
  get: { method: 'GET', path: '/account', response: AccountView },
  update: { method: 'PATCH', path: '/account', body: UpdateProfileBody, response: AccountView },
  uploadAvatar: { method: 'POST', path: '/account/avatar', response: AccountView },
  avatar: { method: 'GET', path: '/accounts/:id/avatar', params: IdParams, query: AvatarQuery, raw: 'file' },
  changePassword: { method: 'POST', path: '/account/password', body: ChangePasswordBody, response: z.null() },
  scenarios: { method: 'GET', path: '/account/scenarios', response: z.array(ScenarioView) },
  addScenario: { method: 'POST', path: '/account/scenarios', body: ScenarioBody, response: ScenarioView },
  deleteScenario: { method: 'DELETE', path: '/account/scenarios/:id', params: IdParams, response: z.null() },
  apiKeys: { method: 'GET', path: '/account/api-keys', response: z.array(ApiKeyView) },
  createApiKey: { method: 'POST', path: '/account/api-keys', body: ApiKeyBody, response: ApiKeyCreated },
  deleteApiKey: { method: 'DELETE', path: '/account/api-keys/:id', params: IdParams, response: z.null() },
} as const satisfies Record<string, RouteContract>;
