import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
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
  const kept = idleEmbedded.pop();
  if (kept) return withOwnNotifications(kept);
  const file = inject('pgliteTemplateFile');
  if (!file) throw new Error('global setup did not prepare a database template');
  templateBytes ??= readFile(file);
  const database = await openDatabase({ kind: 'pglite', loadDataDir: new TarBytes(await templateBytes) });
  // Read from the first copy of this worker, before anything wrote to it.
  templateState ??= readTemplateState(database.pglite!);
  await templateState;
  return database;
}

/**
 * Embedded test databases whose app has closed, emptied back to the template's rows for the next app of this
 * worker: opening a copy of the template cost about 0.7 core-seconds, emptying one about 0.1 (decision 201).
 */
const idleEmbedded: PGlite[] = [];

/** A kept embedded database as a new handle: notifications of its own, and `close` ends it. */
function withOwnNotifications(pglite: PGlite): Database {
  const notifications = pgliteNotifications(pglite);
  return {
    db: embeddedDbs.get(pglite)!,
    kind: 'pglite',
    pglite,
    notifications,
    close: async () => {
      await notifications.close();
      await pglite.close();
    },
    poolStats: () => null,
  };
}
const embeddedDbs = new WeakMap<PGlite, Database['db']>();

/** What emptying a database back to the template needs to know: the template's schema, rows and sequences. */
interface TemplateState {
  schema: string;
  tables: string[];
  rows: Array<{ table: string; json: string }>;
  sequences: Array<{ name: string; value: string; called: boolean }>;
}
let templateState: Promise<TemplateState> | undefined;

/**
 * The schema's fingerprint: every relation with its columns, constraints, functions and triggers of the app's
 * schemas. A test that changed it (one drops a constraint to write a row the app never would) leaves its database
 * to be closed rather than kept.
 */
const SCHEMA_FINGERPRINT = `
  select md5(string_agg(x, E'\n' order by x)) as schema from (
    select n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || coalesce(string_agg(
      a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' ' ||
      coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ',' order by a.attnum), '') as x
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where n.nspname in ('public', 'drizzle')
    group by n.nspname, c.relname, c.relkind
    union all
    select conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint
    where connamespace = 'public'::regnamespace
    union all
    select proname || ':' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
    union all
    select tgrelid::regclass::text || ':' || tgname from pg_trigger where not tgisinternal
    union all
    select 'migrations:' || count(*) from drizzle.__drizzle_migrations
  ) as s`;

async function readTemplateState(pglite: PGlite): Promise<TemplateState> {
  const [{ schema }] = (await pglite.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows as [
    { schema: string },
  ];
  const tables = (
    await pglite.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
    )
  ).rows.map((r) => r.name);
  const rows: TemplateState['rows'] = [];
  for (const table of tables) {
    const [{ json }] = (
      await pglite.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} as t`)
    ).rows as [{ json: string | null }];
    if (json) rows.push({ table, json });
  }
  const sequences = (
    await pglite.query<{ name: string; value: string; called: boolean }>(
      `select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value)::text as value,
         last_value is not null as called
       from pg_sequences where schemaname = 'public'`,
    )
  ).rows;
  return { schema, tables, rows, sequences };
}

/**
 * Ends a test database once its app has closed. An embedded one whose schema is the template's is emptied back to
 * the template's rows and sequences and kept for the next app of this worker; the session's leftovers (advisory
 * locks, temporary tables, open cursors) go too. Any other, and one that cannot be emptied, is closed.
 */
async function releaseTestDatabase(database: Database): Promise<void> {
  const pglite = database.pglite;
  const state = templateState && (await templateState);
  if (!pglite || !state || postgresUrls.has(database) || pglite.closed) return database.close();
  try {
    await database.notifications.close();
    const [{ schema }] = (await pglite.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows as [
      { schema: string },
    ];
    if (schema !== state.schema) throw new Error('the schema changed');
    await pglite.transaction(async (tx) => {
      await tx.query(`truncate ${state.tables.join(', ')}`);
      for (const { table, json } of state.rows) {
        await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1)`, [
          json,
        ]);
      }
      for (const { name, value, called } of state.sequences) {
        await tx.query('select setval($1, $2, $3)', [name, value, called]);
      }
    });
    await pglite.exec('close all; select pg_advisory_unlock_all(); discard temp; discard sequences;');
    embeddedDbs.set(pglite, database.db);
    idleEmbedded.push(pglite);
  } catch {
    await pglite.close();
  }
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
        await releaseTestDatabase(database);
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
