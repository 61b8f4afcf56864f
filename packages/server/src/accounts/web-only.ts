import { AppError, Codes } from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import { requireAccount } from '../auth/principal.ts';

/**
 * onRequest hook of the routes that only the web console may call (SPEC.md §2: permission and
 * sharing are web-only; docs/decisions/0023-api-keys-web-only-routes.md): managing API keys,
 * changing the password, sharing and transfers. A Bearer API key answers 5090, so a leaked key
 * cannot mint more keys, outlive a password change or hand projects on.
 */
export async function webOnly(request: FastifyRequest): Promise<void> {
  if (requireAccount(request).apiKeyId !== null) throw new AppError(Codes.WEB_ONLY);
}
