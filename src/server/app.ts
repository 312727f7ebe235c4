import cookie from '@fastify/cookie';
import { sql } from 'drizzle-orm';
import Fastify, { LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { authRoutes } from './modules/auth/routes.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSecurity } from './plugins/security.js';
import { registerSession } from './plugins/session.js';
import { registerWeb } from './plugins/web.js';
import type { App, AppDeps } from './types.js';

export interface BuildOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
}

export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-flujo-token"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret_token',
  '*.secretToken',
  '*.token',
];

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<App> {
  const logger =
    options.logger === false
      ? false
      : {
          level: deps.config.logLevel,
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          ...(typeof options.logger === 'object' ? options.logger : {}),
        };
  const app = Fastify({
    logger,
    // One log line per answered request is written below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.nodeEnv === 'production',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  await app.register(cookie);
  await registerSecurity(app, deps);
  await registerDocs(app);
  registerSession(app, deps);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await deps.db.execute(sql`select 1`);
      return { ok: true, database: deps.database.kind };
    } catch {
      return reply.status(503).send({ error: 'Database unavailable', code: 'NOT_CONFIGURED' });
    }
  });

  await app.register(async (scope) => authRoutes(scope as App, deps), { prefix: '/api/auth' });

  await registerWeb(app);
  return app;
}
