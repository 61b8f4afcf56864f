import { z } from 'zod';
import { IdParam } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import {
  CreateSubordinateBody,
  GrantProjectBody,
  JoinedDevicesView,
  SeenJoinedDevicesBody,
  SubordinateView,
  UpdateSubordinateBody,
} from './team.ts';

export const SubordinateParams = z.object({ id: IdParam });
export const SubordinateProjectParams = z.object({ id: IdParam, projectId: IdParam });

/**
 * Account management (subordinate accounts and their projects) and the device-joining alert
 * (server src/team/, web features/team; docs/decisions/0059).
 */
export const TEAM_ROUTES = {
  list: { method: 'GET', path: '/account/subordinates', response: z.array(SubordinateView) },
  create: {
    method: 'POST',
    path: '/account/subordinates',
    body: CreateSubordinateBody,
    response: SubordinateView,
  },
  update: {
    method: 'PATCH',
    path: '/account/subordinates/:id',
    params: SubordinateParams,
    body: UpdateSubordinateBody,
    response: SubordinateView,
  },
  remove: {
    method: 'DELETE',
    path: '/account/subordinates/:id',
    params: SubordinateParams,
    response: z.null(),
  },
  /** Mails a new set-your-password link (the older one stops working); 5449 once a password is set. */
  resendInvitation: {
    method: 'POST',
    path: '/account/subordinates/:id/invitation',
    params: SubordinateParams,
    response: SubordinateView,
  },
  grant: {
    method: 'POST',
    path: '/account/subordinates/:id/projects',
    params: SubordinateParams,
    body: GrantProjectBody,
    response: SubordinateView,
  },
  revoke: {
    method: 'DELETE',
    path: '/account/subordinates/:id/projects/:projectId',
    params: SubordinateProjectParams,
    response: SubordinateView,
  },
  joinedDevices: { method: 'GET', path: '/account/joined-devices', response: JoinedDevicesView },
  seenJoinedDevices: {
    method: 'POST',
    path: '/account/joined-devices/seen',
    body: SeenJoinedDevicesBody,
    response: z.null(),
  },
} as const satisfies Record<string, RouteContract>;
