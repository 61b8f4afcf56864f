import { z } from 'zod';
import type { RouteContract } from './route-contract.ts';
import {
  GenerateBody,
  Recommendation,
  SolutionBody,
  SolutionParams,
  SolutionShareBody,
  SolutionShareParams,
  SolutionShareView,
  SolutionSummary,
  SolutionView,
} from './solutions.ts';

/** The solution generator (server solutions/, web features/solutions; decision 0054). */
export const SOLUTION_ROUTES = {
  list: { method: 'GET', path: '/solutions', response: z.array(SolutionSummary) },
  generate: { method: 'POST', path: '/solutions/generate', body: GenerateBody, response: Recommendation },
  create: { method: 'POST', path: '/solutions', body: SolutionBody, response: SolutionView },
  get: { method: 'GET', path: '/solutions/:solutionId', params: SolutionParams, response: SolutionView },
  update: {
    method: 'PUT',
    path: '/solutions/:solutionId',
    params: SolutionParams,
    body: SolutionBody,
    response: SolutionView,
  },
  remove: { method: 'DELETE', path: '/solutions/:solutionId', params: SolutionParams, response: z.null() },
  pdf: { method: 'GET', path: '/solutions/:solutionId/pdf', params: SolutionParams, raw: 'file' },
  shares: {
    method: 'GET',
    path: '/solutions/:solutionId/shares',
    params: SolutionParams,
    response: z.array(SolutionShareView),
  },
  share: {
    method: 'POST',
    path: '/solutions/:solutionId/shares',
    params: SolutionParams,
    body: SolutionShareBody,
    response: SolutionShareView,
  },
  unshare: {
    method: 'DELETE',
    path: '/solutions/:solutionId/shares/:accountId',
    params: SolutionShareParams,
    response: z.null(),
  },
} as const satisfies Record<string, RouteContract>;
