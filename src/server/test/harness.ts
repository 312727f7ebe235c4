import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { pgliteNotifications, type PostgresNotificationOptions } from '../db/notifications.js';
import { seed } from '../db/seed.js';
import { Metrics } from '../lib/metrics.js';
import type { App, AppDeps } from '../types.js';
import { ledgerMismatches } from './ledger-check.js';
import { openApps } from './open-apps.js';
import { parseJson, raiseSignupLimit, type ApiCall } from './signup-limit.js';
import { ident, postgresTarget, withAdminClient } from './template.js';

/** A fresh, migrated database of the kind this run tests (PostgreSQL with TEST_DATABASE_URL, else PGlite). */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const tpl = inject('pgTemplate');
  if (url && tpl) {
    const { adminUrl, base, urlFor } = postgresTarget(url);
    const name = `${base}_${randomBytes(6).toString('hex')}`;
    await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(tpl)}`));
    const database = await openDatabase({ kind: 'postgres', url: urlFor(name) });
    const wrapped: Database = {
      ...database,
      close: async () => {
        await database.close();
        await withAdminClient(adminUrl, (c) =>
          c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`),
        );
      },
    };
    postgresUrls.set(wrapped, urlFor(name));
    return wrapped;
  }
  const file = inject('pgliteTemplateFile');
  if (!file) throw new Error('global setup did not prepare a database template');
  templateBytes ??= readFile(file);
  return openDatabase({ kind: 'pglite', loadDataDir: new TarBytes(await templateBytes) });
}

/** The template's bytes, read once per worker: every embedded test database starts from them. */
let templateBytes: Promise<Uint8Array> | undefined;

/**
 * The template as PGlite reads it (`arrayBuffer()` alone), each time a copy of its own. Node 20's Blob hands its
 * bytes over through a stream of small chunks: about a fifth of a test database's start for the 28 MB copy.
 */
class TarBytes extends Blob {
  readonly #tar: Uint8Array;

  constructor(tar: Uint8Array) {
    super([]);
    this.#tar = tar;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#tar.slice().buffer);
  }
}

const postgresUrls = new WeakMap<Database, string>();

/**
 * Another handle on a test database, as a second server instance on it has: on PostgreSQL its own pool and
 * its own listening connection (with `listener`'s timings); on the embedded database, which one process
 * holds, the same PGlite with a listener of its own. Closing it leaves the database to its first handle.
 */
export async function anotherHandle(
  database: Database,
  listener?: Omit<PostgresNotificationOptions, 'url'>,
): Promise<Database> {
  const url = postgresUrls.get(database);
  if (url) return openDatabase({ kind: 'postgres', url, poolSize: 4, ...(listener ? { listener } : {}) });
  if (!database.pglite) throw new Error('not a test database');
  const notifications = pgliteNotifications(database.pglite);
  return { ...database, notifications, close: () => notifications.close() };
}

export interface TestClock {
  now: () => Date;
  /** Moves the clock forward by ms. */
  advance(ms: number): void;
  /** Back to following the real time. */
  reset(): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}

export interface TestApp {
  app: App;
  /** What the app was built from: jobs and services called directly by a test get these. */
  deps: AppDeps;
  database: Database;
  config: Config;
  clock: TestClock;
  /** The app's own origin, as a browser on it would send it. */
  origin: string;
  close(): Promise<void>;
}

export const TEST_ADMIN = { email: 'admin@test.example', password: 'admin-password-1' };

export interface TestAppOptions extends BuildOptions {
  /**
   * Keep `signups_per_ip_per_hour` at its default. Otherwise the admin raises it through the config API once
   * the app is ready: every test client signs up from 127.0.0.1.
   */
  keepSignupLimit?: boolean;
}

/** The whole app on a fresh database, seeded as at a first start, with an admin. */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = { logger: false },
): Promise<TestApp> {
  const { keepSignupLimit = false, ...buildOptions } = options;
  const config = loadConfig({
    NODE_ENV: 'test',
    DEMO_WORKFLOWS: 'false',
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const database = await createTestDatabase();
  const clock = testClock();
  const deps: AppDeps = { config, database, db: database.db, now: clock.now, metrics: new Metrics() };
  await seed(deps);
  const app = await buildApp(
    deps,
    'logger' in buildOptions ? buildOptions : { ...buildOptions, logger: false },
  );
  await app.ready();
  if (!keepSignupLimit) {
    await raiseSignupLimit(injectApi(app, config.publicUrl), {
      email: env.ADMIN_EMAIL ?? TEST_ADMIN.email,
      password: env.ADMIN_PASSWORD ?? TEST_ADMIN.password,
    });
  }
  const testApp: TestApp = {
    app,
    deps,
    database,
    config,
    clock,
    origin: config.publicUrl,
    // Every test file that builds an app ends with the reconciliation: balance = sum of the ledger and
    // balance >= 0 for every user, or the file fails.
    close: async () => {
      openApps.delete(testApp);
      let mismatches: Awaited<ReturnType<typeof ledgerMismatches>>;
      try {
        mismatches = await ledgerMismatches(database.db);
      } finally {
        await app.close();
        await database.close();
      }
      if (mismatches.length > 0) {
        throw new Error(
          `Ledger reconciliation failed for ${mismatches.length} user(s): ${JSON.stringify(mismatches)}`,
        );
      }
    },
  };
  openApps.add(testApp);
  return testApp;
}

/** An ApiCall through app.inject, from 127.0.0.1 with the app's own origin. */
function injectApi(app: App, origin: string): ApiCall {
  return async (method, url, body, cookie) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        origin,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    const setCookie = res.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    return { status: res.statusCode, body: parseJson(res.body), cookie: first?.split(';')[0] };
  };
}

/**
 * One app for a test file: built before its tests, and after them the books are checked (every balance equals
 * its ledger) and the app is closed. The object is filled in when the tests start.
 */
export function useTestApp(env: Record<string, string> = {}, options?: TestAppOptions): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await buildTestApp(env, options));
  });
  afterAll(async () => {
    if (!holder.database) return;
    expect(await ledgerMismatches(holder.database.db)).toEqual([]);
    await holder.close();
  });
  return holder;
}
