import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  API_PREFIX,
  AppError,
  Codes,
  ok as envelope,
  LIMITS,
  PLATFORM_ROUTES,
  routeUrl,
} from '@beacon/protocol';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountRoutes } from './accounts/routes.ts';
import { alarmRoutes } from './alarms/routes.ts';
import { apiKeyDocTransform } from './api-keys/document.ts';
import { registerAccessGate } from './api-keys/gate.ts';
import { identityAccountRoutes, identityAuthRoutes } from './auth/identity-routes.ts';
import { HEALTH_PATH, registerPrincipal, signedInHook } from './auth/principal.ts';
import { authRoutes } from './auth/routes.ts';
import { backupRoutes } from './backups/routes.ts';
import { clientRoutes } from './clients/routes.ts';
import { dhcpServerRoutes } from './config/dhcp-server-routes.ts';
import { configRoutes } from './config/routes.ts';
import { switchRoutes } from './config/switch-routes.ts';
import type { Deps } from './deps.ts';
import { devRoutes } from './dev/routes.ts';
import { deviceRoutes } from './devices/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { helpRoutes } from './help/routes.ts';
import { clientErrorHandler, errorBody, errorHandler } from './http/errors.ts';
import { healthCheck } from './http/health.ts';
import { registerOriginCheck } from './http/origin.ts';
import { recordRoutes } from './http/route-registry.ts';
import type { App } from './http/types.ts';
import { registerNulGuard, validatorCompiler } from './http/validation.ts';
import { setWebCacheHeaders } from './http/web-assets.ts';
import { logRoutes } from './logs/routes.ts';
import { documentActionBodies } from './maintenance/openapi.ts';
import { firmwareDownloadRoutes, maintenanceRoutes } from './maintenance/routes.ts';
import { operationsRoutes } from './metrics/routes.ts';
import { modelRoutes } from './models/routes.ts';
import { networkRoutes } from './network/routes.ts';
import { overviewRoutes } from './overview/routes.ts';
import { projectRoutes } from './projects/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { rfRoutes } from './rf/routes.ts';
import { sharingRoutes } from './sharing/routes.ts';
import { solutionRoutes } from './solutions/routes.ts';
import { statsRoutes } from './stats/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { topologyRoutes } from './topology/routes.ts';
import { wifiRoutes } from './wifi/routes.ts';
import { wifiMapRoutes } from './wifi-map/routes.ts';

// SPEC.md §9: firmware (40 MB) is the largest upload; each route checks its own limit.
const MAX_UPLOAD_BYTES = LIMITS.FIRMWARE_MAX_BYTES;
/**
 * Every JSON (or text) body: far above any form, yet a caller cannot make the server buffer and
 * parse tens of megabytes. Multipart uploads are not read through this limit: each upload route
 * streams its file under its own limit (firmware 40 MB, avatar 10 MB, device import 5 MB).
 */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  deps: Omit<Deps, 'log'>;
  logger?: FastifyBaseLogger | boolean | object;
}

export async function buildApp({ deps: base, logger }: BuildOptions): Promise<App> {
  const app = Fastify({
    loggerInstance:
      typeof logger === 'object' && logger !== null && 'info' in logger
        ? (logger as FastifyBaseLogger)
        : undefined,
    logger: typeof logger === 'object' && logger !== null && 'info' in logger ? undefined : (logger ?? false),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: base.config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  recordRoutes(app);
  const deps: Deps = { ...base, log: app.log };
  const { config } = deps;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  registerNulGuard(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // /metrics, /healthz, /readyz and every request's duration by route pattern (src/metrics/).
  operationsRoutes(app as unknown as FastifyInstance, deps);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Ant Design injects its CSS-in-JS styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https:'),
  });
  await app.register(fastifyCookie);
  // Registered before any onRequest hook that can fail (the principal needs the database): its own
  // onRequest marks upgrade requests, and only marked ones get their socket closed after an error
  // answer; an unmarked one would stay open and hold up shutdown. The browser sends only pings.
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(Codes.RATE_LIMITED),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Beacon API', version: '1' },
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: 'token' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: apiKeyDocTransform(jsonSchemaTransform),
    // The action routes take a body that depends on the action in the path: the document shows
    // each action's schema (maintenance/openapi.ts).
    transformObject: documentActionBodies,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerOriginCheck(app, config);
  registerPrincipal(app, deps.database.db, config, deps.now);
  registerAccessGate(app, deps.database.db, deps.now);

  app.get(routeUrl(PLATFORM_ROUTES.openapi), { schema: { hide: true } }, async () => app.swagger());
  app.get(
    HEALTH_PATH,
    { schema: { hide: true, response: { 200: envelope(PLATFORM_ROUTES.health.response) } } },
    (request, reply) => healthCheck(deps, request, reply),
  );

  await app.register(
    async (api) => {
      // Public, or authenticated their own way: sign-in and sign-up (logout and the session answer
      // for themselves), the WebSocket (checks the account before the upgrade), the devices'
      // signed firmware downloads, the loopback-only dev outbox.
      await authRoutes(api as App, deps);
      await identityAuthRoutes(api as App, deps);
      await eventRoutes(api as App, deps);
      await firmwareDownloadRoutes(api as App, deps);
      await helpRoutes(api as App);
      if (config.devOutbox) await devRoutes(api as App, deps);
      // Everything else needs an account: the check runs on every request before validation.
      await api.register(async (signed) => {
        signed.addHook('onRequest', signedInHook);
        await accountRoutes(signed as App, deps);
        await identityAccountRoutes(signed as App, deps);
        await teamRoutes(signed as App, deps);
        await projectRoutes(signed as App, deps);
        await deviceRoutes(signed as App, deps);
        await logRoutes(signed as App, deps);
        await statsRoutes(signed as App, deps);
        await sharingRoutes(signed as App, deps);
        await maintenanceRoutes(signed as App, deps);
        await configRoutes(signed as App, deps);
        await switchRoutes(signed as App, deps);
        await dhcpServerRoutes(signed as App, deps);
        await networkRoutes(signed as App, deps);
        await wifiRoutes(signed as App, deps);
        await alarmRoutes(signed as App, deps);
        await clientRoutes(signed as App, deps);
        await overviewRoutes(signed as App, deps);
        await backupRoutes(signed as App, deps);
        await rfRoutes(signed as App, deps);
        await wifiMapRoutes(signed as App, deps);
        await solutionRoutes(signed as App, deps);
        await reportRoutes(signed as App, deps);
        await modelRoutes(signed as App, deps);
        await topologyRoutes(signed as App, deps);
      });
    },
    { prefix: API_PREFIX },
  );

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    // The build writes .br and .gz next to each asset (packages/web/build/precompress.ts).
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: setWebCacheHeaders(config.webDist),
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (!url.startsWith('/api/') && request.method === 'GET' && hasWeb) {
      // The single-page app owns every other path (SPEC.md §2 routes).
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(indexHtml));
    }
    return reply.status(404).send(errorBody(request, Codes.NOT_FOUND));
  });

  return app as unknown as App;
}
