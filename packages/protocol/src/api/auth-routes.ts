import { z } from 'zod';
import {
  AcceptInvitationBody,
  LoginBody,
  ResetPasswordBody,
  SendCodeBody,
  SessionView,
  SignUpBody,
} from './auth.ts';
import { SignInStep } from './identity.ts';
import type { RouteContract } from './route-contract.ts';

/** Sign-up, sign-in, sign-out, the session and password reset (server auth/, web features/auth). */
export const AUTH_ROUTES = {
  sendCode: { method: 'POST', path: '/auth/codes', body: SendCodeBody, response: z.null() },
  signUp: { method: 'POST', path: '/auth/signup', body: SignUpBody, response: SessionView },
  /** Signed in, or (two-factor sign-in on) the second factor is needed: POST /auth/second-factor. */
  login: { method: 'POST', path: '/auth/login', body: LoginBody, response: SignInStep },
  logout: { method: 'POST', path: '/auth/logout', response: z.null() },
  session: { method: 'GET', path: '/auth/session', response: SessionView },
  resetPassword: { method: 'POST', path: '/auth/reset', body: ResetPasswordBody, response: z.null() },
  /** A subordinate account sets its first password with its invitation link (decision 0068). */
  acceptInvitation: {
    method: 'POST',
    path: '/auth/invitation',
    body: AcceptInvitationBody,
    response: z.null(),
  },
} as const satisfies Record<string, RouteContract>;
