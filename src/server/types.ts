import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Metrics } from './lib/metrics.js';

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the app is built from; tests pass their own database and clock. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  /** Current time; injectable so expiry and renewal can be tested without waiting. */
  now: () => Date;
  /** This instance's counters; each is moved where its fact happens, and served at /metrics when configured. */
  metrics: Metrics;
}
