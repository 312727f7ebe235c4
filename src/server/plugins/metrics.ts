import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import type { ErrorCode } from '#shared/contract/errors.js';
import { errorText, type ErrorTextKey } from '#shared/i18n/errors.js';
import { AppError, notFound } from '../lib/errors.js';
import type { Metrics } from '../lib/metrics.js';
import { outboxBacklog, type OutboxBacklog } from '../modules/mail/service.js';
import type { App, AppDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's metrics (the same object as `deps.metrics`), for code that holds only a reply. */
    metrics: Metrics;
    /**
     * Starts the listener of METRICS_PORT and gives its address; null when the metrics are not served on a
     * port of their own. The listener closes with the app.
     */
    listenForMetrics(): Promise<AddressInfo | null>;
  }
}

/** A scrape never waits longer than this for the outbox count: a stuck database must not stall the scrape. */
const OUTBOX_QUERY_TIMEOUT_MS = 2_000;

/** The route label: the route's pattern; the web app's hashed files are one label, not one per build. */
function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route === undefined) return '(unmatched)';
  return route.startsWith('/assets/') ? '/assets/*' : route;
}

/** Compares digests, so the comparison takes as long whatever the given token's length or content. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  return timingSafeEqual(createHash('sha256').update(match[1]).digest(), expected);
}

/** The gauges read when the registry is scraped: the database pool and the mail outbox. */
function registerStateGauges(metrics: Metrics, deps: AppDeps, log: FastifyBaseLogger): void {
  const registers = [metrics.registry];
  const { database } = deps;
  new Gauge({
    name: 'flujo_db_pool_max_connections',
    help: 'The most connections the pool opens (1 on the embedded database: one connection, no pool)',
    registers,
    collect() {
      this.set(database.poolStats()?.max ?? 1);
    },
  });
  // The embedded database has no pool: its one connection's queue is inside PGlite, out of sight.
  if (database.poolStats() !== null) {
    new Gauge({
      name: 'flujo_db_pool_connections',
      help: 'Database connections open, by state (in_use, idle)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = database.poolStats();
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'flujo_db_pool_waiting',
      help: 'Queries waiting for a free database connection',
      registers,
      collect() {
        this.set(database.poolStats()?.waiting ?? 0);
      },
    });
  }

  // Both outbox gauges come from one query per scrape: the second collect joins the first one's query.
  let reading: Promise<OutboxBacklog | null> | null = null;
  const backlog = () => {
    reading ??= readBacklog().finally(() => {
      reading = null;
    });
    return reading;
  };
  const readBacklog = async (): Promise<OutboxBacklog | null> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the outbox count took too long')), OUTBOX_QUERY_TIMEOUT_MS);
    });
    try {
      return await Promise.race([outboxBacklog(deps.db, deps.now()), timeout]);
    } catch (err) {
      log.warn({ err }, 'metrics: the outbox could not be counted');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
  new Gauge({
    name: 'flujo_mail_outbox_messages',
    help: 'Mails in the outbox not sent yet, by status (pending, sending); the same on every instance',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      // NaN (unknown), rather than a stale or a made-up value, when the database did not answer.
      const now = await backlog();
      this.set({ status: 'pending' }, now?.pending ?? Number.NaN);
      this.set({ status: 'sending' }, now?.sending ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'flujo_mail_outbox_oldest_seconds',
    help: 'How long the oldest unsent mail has waited (0 when none); the same on every instance',
    registers,
    async collect() {
      this.set((await backlog())?.oldestSeconds ?? Number.NaN);
    },
  });
}

/**
 * GET /metrics in the Prometheus text format, when the configuration asks for it (config.metrics): on the
 * app's listener behind `METRICS_TOKEN`, or on a listener of its own (`METRICS_PORT`). Otherwise the route
 * answers 404 and no request is measured. The counters themselves are always kept (`deps.metrics`): moving
 * one costs less than deciding whether to.
 */
export function registerMetrics(app: App, deps: AppDeps): void {
  const { metrics } = deps;
  const settings = deps.config.metrics;
  app.decorate('metrics', metrics);
  const tokenDigest =
    settings?.token === undefined ? null : createHash('sha256').update(settings.token).digest();
  const authorized = (header: string | undefined) =>
    tokenDigest === null || bearerMatches(header, tokenDigest);

  let listener: Server | null = null;
  app.decorate('listenForMetrics', async () => {
    const port = settings?.port;
    if (port === undefined) return null;
    if (listener) return listener.address() as AddressInfo;
    const server = createServer((req, res) => void answerOnPort(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, deps.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    listener = server;
    return server.address() as AddressInfo;
  });
  app.addHook('onClose', async () => {
    const server = listener;
    if (!server) return;
    listener = null;
    // A scraper keeps its connection open between scrapes.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (settings === undefined || settings.port !== undefined) throw notFound();
    if (!authorized(request.headers.authorization)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('UNAUTHENTICATED', 'metricsTokenRequired');
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });

  /** The separate listener: only GET (and HEAD) /metrics, with the token when one is set. */
  async function answerOnPort(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fail = <C extends ErrorCode>(status: number, code: C, key: ErrorTextKey<C>, requestId?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (status === 401) headers['www-authenticate'] = 'Bearer realm="metrics"';
      const body = { error: errorText('en', code, key), code, ...(requestId ? { requestId } : {}) };
      res.writeHead(status, headers).end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return fail(404, 'NOT_FOUND', 'default');
    }
    if (!authorized(req.headers.authorization)) {
      return fail(401, 'UNAUTHENTICATED', 'metricsTokenRequired');
    }
    try {
      const body = await metrics.registry.metrics();
      res
        .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      // Not a request of the app's, but a 5xx all the same: an id to find its log line by.
      const reqId = randomUUID();
      app.log.error({ err, reqId }, 'metrics: the registry could not be read');
      fail(500, 'INTERNAL_ERROR', 'default', reqId);
    }
  }

  if (settings === undefined) return;
  collectDefaultMetrics({ register: metrics.registry });
  registerStateGauges(metrics, deps, app.log);
  // Callback-style: it runs on every request.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
