import {
  type CreateSubordinateBody,
  type GrantProjectBody,
  TEAM_ROUTES as R,
  type UpdateSubordinateBody,
} from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

export const TEAM_KEY = ['account', 'subordinates'] as const;
export const JOINED_KEY = ['account', 'joined-devices'] as const;

/** Account management and the joining alert, from TEAM_ROUTES (paths and answer types). */
export const teamApi = {
  list: () => callRoute(R.list, {}),
  create: (body: CreateSubordinateBody) => callRoute(R.create, {}, { body }),
  update: (id: number, body: UpdateSubordinateBody) => callRoute(R.update, { id }, { body }),
  remove: (id: number) => callRoute(R.remove, { id }),
  resendInvitation: (id: number) => callRoute(R.resendInvitation, { id }),
  grant: (id: number, body: GrantProjectBody) => callRoute(R.grant, { id }, { body }),
  revoke: (id: number, projectId: number) => callRoute(R.revoke, { id, projectId }),
  joined: () => callRoute(R.joinedDevices, {}),
  seen: (through: string) => callRoute(R.seenJoinedDevices, {}, { body: { through } }),
};
