import { ACCOUNT_ROUTES, AppError, Codes, ok as envelope } from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import { requireAccount } from '../auth/principal.ts';
import { createAuthService } from '../auth/service.ts';
import { setSessionCookie } from '../auth/sessions.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import { AVATAR_MAX_BYTES, type CallContext, createAccountService } from './service.ts';
import { webOnly } from './web-only.ts';

const tags = ['account'];
const R = ACCOUNT_ROUTES;

function context(request: FastifyRequest): CallContext {
  return { requestId: request.id, ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Reads the multipart field `file`; more than 10 MB answers 5017. */
async function readUpload(request: FastifyRequest): Promise<Buffer> {
  const file = await readOneFile(request, {
    maxBytes: AVATAR_MAX_BYTES,
    tooLarge: () => new AppError(Codes.IMAGE_TOO_LARGE),
    choose: 'Choose an image file',
  });
  return file.bytes;
}

export async function accountRoutes(app: App, deps: Deps): Promise<void> {
  const service = createAccountService(deps, createAuthService(deps));

  app.get(
    R.get.path,
    {
      schema: { tags, summary: 'The calling account', response: { 200: envelope(R.get.response) } },
    },
    async (request) => ok(await service.get(requireAccount(request))),
  );

  app.patch(
    R.update.path,
    {
      schema: {
        tags,
        summary: 'Update the profile (company name and location once per year)',
        body: R.update.body,
        response: { 200: envelope(R.update.response) },
      },
    },
    async (request) => ok(await service.update(requireAccount(request), request.body, context(request))),
  );

  app.post(
    R.uploadAvatar.path,
    {
      schema: {
        tags,
        summary: 'Upload the avatar (multipart field `file`: jpg, png, gif or bmp, up to 10 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(R.uploadAvatar.response) },
      },
    },
    async (request) => {
      const principal = requireAccount(request);
      const bytes = await readUpload(request);
      return ok(await service.setAvatar(principal, bytes, context(request)));
    },
  );

  app.get(
    R.avatar.path,
    {
      schema: {
        tags,
        summary: 'An account avatar image (any signed-in account may read it)',
        params: R.avatar.params,
        querystring: R.avatar.query,
        produces: ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'],
      },
    },
    async (request, reply) => {
      requireAccount(request);
      const avatar = await service.avatar(request.params.id);
      const etag = `"avatar-${request.params.id}-${avatar.version}"`;
      reply
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('etag', etag)
        // The versioned URL (?v=) never changes content; other URLs revalidate.
        .header(
          'cache-control',
          request.query.v === avatar.version ? 'private, max-age=31536000, immutable' : 'private, no-cache',
        );
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(avatar.mime).send(avatar.avatar);
    },
  );

  app.post(
    R.changePassword.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary:
          'Change the password; other sessions are signed out (70), this one stays; API keys end unless keepApiKeys',
        body: R.changePassword.body,
        response: { 200: envelope(R.changePassword.response) },
      },
    },
    async (request, reply) => {
      const reissued = await service.changePassword(requireAccount(request), request.body, context(request));
      if (reissued) setSessionCookie(reply, deps.config, reissued.token, reissued.persistent);
      return ok(null);
    },
  );

  app.get(
    R.scenarios.path,
    {
      schema: { tags, summary: 'Custom scenarios', response: { 200: envelope(R.scenarios.response) } },
    },
    async (request) => ok(await service.listScenarios(requireAccount(request))),
  );

  app.post(
    R.addScenario.path,
    {
      schema: {
        tags,
        summary: 'Add a custom scenario (at most 20)',
        body: R.addScenario.body,
        response: { 200: envelope(R.addScenario.response) },
      },
    },
    async (request) =>
      ok(await service.addScenario(requireAccount(request), request.body.name, context(request))),
  );

  app.delete(
    R.deleteScenario.path,
    {
      schema: {
        tags,
        summary: 'Delete a custom scenario',
        params: R.deleteScenario.params,
        response: { 200: envelope(R.deleteScenario.response) },
      },
    },
    async (request) => {
      await service.deleteScenario(requireAccount(request), request.params.id, context(request));
      return ok(null);
    },
  );

  app.get(
    R.apiKeys.path,
    {
      onRequest: webOnly,
      schema: { tags, summary: 'OpenAPI keys', response: { 200: envelope(R.apiKeys.response) } },
    },
    async (request) => ok(await service.listApiKeys(requireAccount(request))),
  );

  app.post(
    R.createApiKey.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary:
          'Create an OpenAPI key (scope, projects, expiry, rate per minute); the secret is shown only in this answer',
        body: R.createApiKey.body,
        response: { 200: envelope(R.createApiKey.response) },
      },
    },
    async (request) =>
      ok(await service.createApiKey(requireAccount(request), request.body, context(request))),
  );

  app.delete(
    R.deleteApiKey.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Delete an OpenAPI key',
        params: R.deleteApiKey.params,
        response: { 200: envelope(R.deleteApiKey.response) },
      },
    },
    async (request) => {
      await service.deleteApiKey(requireAccount(request), request.params.id, context(request));
      return ok(null);
    },
  );
}
