import { ProjectParams } from './ids.ts';
import {
  ManualRfBody,
  OptimiseBody,
  RfRunList,
  RfRunParams,
  RfRunView,
  RfScheduleBody,
  RfScheduleView,
  RfView,
  RoamingBody,
  SetCountryBody,
} from './rf.ts';
import type { RouteContract } from './route-contract.ts';

/** RF optimisation and the Wi-Fi country (server src/rf/, web features/rf, issue 11, decision 0048). */
export const RF_ROUTES = {
  get: { method: 'GET', path: '/projects/:id/rf', params: ProjectParams, response: RfView },
  country: {
    method: 'PUT',
    path: '/projects/:id/rf/country',
    params: ProjectParams,
    body: SetCountryBody,
    response: RfView,
  },
  manual: {
    method: 'PUT',
    path: '/projects/:id/rf/radios',
    params: ProjectParams,
    body: ManualRfBody,
    response: RfRunView,
  },
  roaming: {
    method: 'PUT',
    path: '/projects/:id/rf/roaming',
    params: ProjectParams,
    body: RoamingBody,
    response: RfView,
  },
  optimise: {
    method: 'POST',
    path: '/projects/:id/rf/optimise',
    params: ProjectParams,
    body: OptimiseBody,
    response: RfRunView,
  },
  runs: { method: 'GET', path: '/projects/:id/rf/runs', params: ProjectParams, response: RfRunList },
  run: { method: 'GET', path: '/projects/:id/rf/runs/:runId', params: RfRunParams, response: RfRunView },
  schedule: {
    method: 'PUT',
    path: '/projects/:id/rf/schedule',
    params: ProjectParams,
    body: RfScheduleBody,
    response: RfScheduleView,
  },
} as const satisfies Record<string, RouteContract>;
