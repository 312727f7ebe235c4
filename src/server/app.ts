import cookie from '@fastify/cookie';
import { sql } from 'drizzle-orm';
import Fastify, { LogController, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { demoServices } from '../../demo/register.js';
import { accountRoutes } from './modules/account/routes.js';
import { publicConfigRoutes } from './modules/settings/routes.js';
import { adminEmailRoutes } from './modules/admin/email-routes.js';
import { adminInsightsRoutes } from './modules/admin/insights-routes.js';
import { adminReviewRoutes } from './modules/admin/review-routes.js';
import { adminApiRoutes } from './modules/admin/api-routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { adminOperationsRoutes } from './modules/admin/operations-routes.js';
import { translateRoutes } from './modules/admin/translate-routes.js';
import { apiKeyRoutes } from './modules/apikeys/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { workflowDeleteRoutes } from './modules/admin/workflow-delete-routes.js';
import { workflowLifecycleRoutes } from './modules/admin/workflow-lifecycle-routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { chatRoutes } from './modules/chat/routes.js';
import { creditRoutes } from './modules/credits/routes.js';
import { executionApiRoutes } from './modules/public-api/api-routes.js';
import { mcpRoutes } from './modules/public-api/mcp-routes.js';
import { oauthProviderOnFirstUse } from './modules/oauth/provider.js';
import { oauthRoutes } from './modules/oauth/routes.js';
import { executionRoutes } from './modules/executions/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { publicApiRoutes } from './modules/public-api/routes.js';
import { accountWebhookRoutes, apiWebhookRoutes } from './modules/webhooks/routes.js';
import { savedInputApiRoutes, savedInputRoutes } from './modules/public-api/saved-input-routes.js';
import { resultRoutes } from './modules/results/routes.js';
import { resultCallbackRoutes } from './modules/executions/result-routes.js';
import { scheduleApiRoutes, scheduleCookieRoutes } from './modules/schedules/routes.js';
import { workflowRoutes } from './modules/workflows/routes.js';
import { AccessLog, registerAccessLog } from './plugins/access-log.js';
import { LazyChildLogger } from './lib/lazy-logger.js';
import { registerApiRateLimit } from './plugins/api-rate-limit.js';
import { registerCompression } from './plugins/compression.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { registerMcpHostCheck } from './plugins/mcp-origin.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerRequestIdHeader, requestIdGenerator } from './plugins/request-id.js';
import { registerSecurity, securityHeaders } from './plugins/security.js';
import { registerSession, requireAdmin } from './plugins/session.js';
import { registerWeb } from './plugins/web.js';
import type { App, AppDeps } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set on SIGTERM: the instance is finishing its work and should get no new traffic. */
    draining: boolean;
    /** Writes the request lines still waiting for their batch (a test reads them without waiting for its timer). */
    flushAccessLog(): void;
  }
}

export interface BuildOptions {
  /** Where the app log and the access log go (default: stdout), or false for no logs (tests). */
  logger?: false | { destination: DestinationStream };
  /** Counters each in-memory rate limiter holds at most (default MEMORY_MAX_KEYS). */
  rateLimitMemoryCapacity?: number;
}

const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-flujo-token"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret_token',
  '*.secretToken',
  '*.token',
  '*.secretAccessKey',
];

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<App> {
  // Asynchronous writes: a line logged while the previous write is under way joins the next write, instead of
  // one blocking write(2) per request.
  const destination =
    options.logger === false
      ? null
      : (options.logger?.destination ?? pino.destination({ dest: 1, sync: false }));
  const logger =
    destination === null
      ? false
      : {
          level: deps.config.logLevel,
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          stream: destination,
        };
  const app = Fastify({
    logger,
    genReqId: requestIdGenerator(deps.config.trustProxy),
    childLoggerFactory: (parent, bindings, options) => new LazyChildLogger(parent, bindings, options),
    // One log line per answered request is written below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // During shutdown, finish requests that arrive on connections already open instead of answering 503:
    // they were sent before the listener closed.
    return503OnClosing: false,
    // Only named proxies, never `true`: trusting every hop would take the client's own (forgeable) left-most
    // X-Forwarded-For entry as its address and let it dodge the per-address sign-in throttle.
    trustProxy: deps.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, deps.config);
  registerRequestIdHeader(app);
  const accessLog = destination ? AccessLog.create(deps.config.logLevel, destination) : null;
  if (accessLog) registerAccessLog(app, accessLog);
  app.decorate('flushAccessLog', () => accessLog?.flush());
  registerMetrics(app, deps);
  // Cookies are parsed when a request asks for its session (plugins/session.ts), not on every request.
  await app.register(cookie, { hook: false });
  const headers = securityHeaders(deps.config.publicUrl.startsWith('https://'));
  registerSecurity(app, deps, headers);
  await registerDocs(app, deps.config.publicUrl, deps.config.webDir);
  registerSession(app, deps);
  await registerRateLimits(app, deps, { memoryCapacity: options.rateLimitMemoryCapacity });

  registerCompression(app);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.decorate('draining', false);
  // While draining, every answer closes its connection: an idle keep-alive socket would otherwise hold
  // close() open until its keep-alive timeout (72 s), past the grace period of most process managers.
  // close() drains too, however it is called: it closes the connections idle when it starts, but one whose
  // request was under way then goes idle afterwards and would stay open as long.
  app.addHook('preClose', async () => {
    app.draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) void reply.header('connection', 'close');
    done(null, payload);
  });
  // Anyone may ask, so it says ready or not and nothing about what is behind it; why an instance is not ready
  // (draining, or the database's own error) is in the log.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const notReady = () =>
      reply
        .status(503)
        .send({ error: 'Not ready', code: 'NOT_CONFIGURED', key: 'default', requestId: request.id });
    if (app.draining) return notReady();
    try {
      await deps.db.execute(sql`select 1`);
      return { ok: true };
    } catch (err) {
      request.log.error({ err }, 'readyz: the database did not answer');
      return notReady();
    }
  });

  await app.register(async (scope) => publicConfigRoutes(scope as App, deps));
  await app.register(async (scope) => authRoutes(scope as App, deps), { prefix: '/api/auth' });
  await app.register(async (scope) => accountRoutes(scope as App, deps), { prefix: '/api/account' });
  await app.register(async (scope) => apiKeyRoutes(scope as App, deps), { prefix: '/api/account/api-keys' });
  await app.register(async (scope) => accountWebhookRoutes(scope as App, deps), { prefix: '/api/account' });
  await app.register(async (scope) => notificationRoutes(scope as App, deps), {
    prefix: '/api/notifications',
  });
  await app.register(async (scope) => workflowRoutes(scope as App, deps), { prefix: '/api/workflows' });
  await app.register(async (scope) => executionRoutes(scope as App, deps), { prefix: '/api/executions' });
  await app.register(async (scope) => chatRoutes(scope as App, deps), { prefix: '/api' });
  await app.register(async (scope) => creditRoutes(scope as App, deps), { prefix: '/api/credits' });
  await app.register(async (scope) => paymentRoutes(scope as App, deps), { prefix: '/api/payments' });
  await app.register(async (scope) => resultCallbackRoutes(scope as App, deps));
  await app.register(async (scope) => resultRoutes(scope as App, deps));
  await app.register(async (scope) => scheduleCookieRoutes(scope as App, deps), { prefix: '/api/schedules' });
  await app.register(async (scope) => savedInputRoutes(scope as App, deps), { prefix: '/api/saved-inputs' });
  // The public API: Bearer API keys only, limited per key; it starts runs through executions/service.ts.
  await app.register(
    async (scope) => {
      registerApiRateLimit(scope as App, deps);
      await publicApiRoutes(scope as App, deps);
      await executionApiRoutes(scope as App, deps);
      await apiWebhookRoutes(scope as App, deps);
      await scope.register(async (inner) => scheduleApiRoutes(inner as App, deps), { prefix: '/schedules' });
      await savedInputApiRoutes(scope as App, deps);
      await scope.register(async (inner) => adminApiRoutes(inner as App, deps), { prefix: '/admin' });
    },
    { prefix: '/api/v1' },
  );
  // OAuth 2.1 (decision 161): apps such as Claude's connectors get tokens for /mcp and /api/v1 here.
  const oauthProvider = oauthProviderOnFirstUse(deps);
  await app.register(async (scope) => oauthRoutes(scope as App, deps, oauthProvider));
  // MCP clients use the same keys and the same per-key limit, once the request is known not to be a rebinding.
  await app.register(async (scope) => {
    registerMcpHostCheck(scope as App, deps);
    registerApiRateLimit(scope as App, deps);
    await mcpRoutes(scope as App, deps);
  });
  // One guard for the whole admin prefix: 401 for visitors, 403 for non-admins, before any body is read.
  const adminOnly = async (request: FastifyRequest) => {
    await requireAdmin(request);
  };
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', adminOnly);
      await adminRoutes(scope as App, deps);
      await adminEmailRoutes(scope as App, deps);
      await adminReviewRoutes(scope as App, deps);
      await adminInsightsRoutes(scope as App, deps);
      await adminOperationsRoutes(scope as App, deps);
      await translateRoutes(scope as App, deps);
      await workflowLifecycleRoutes(scope as App, deps);
    },
    { prefix: '/api/admin' },
  );
  // Workflows are deleted at /api/workflows/{id} (the public API's path); the same admin guard applies.
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', adminOnly);
      await workflowDeleteRoutes(scope as App, deps);
    },
    { prefix: '/api/workflows' },
  );
  if (deps.config.demoWorkflows) {
    // Kept outside src/ (demo/) so the demo services get no more than a real workflow service would.
    await app.register(demoServices, {
      prefix: '/demo-hooks',
      slowStepMs: deps.config.demoSlowStepMs,
      now: deps.now,
    });
  }

  await registerWeb(app, deps);
  return app;
}
