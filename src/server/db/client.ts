import { mkdirSync } from 'node:fs';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fromProjectRoot } from '../lib/project-root.js';
import {
  type Notifications,
  pgliteNotifications,
  PostgresNotifications,
  type PostgresNotificationOptions,
} from './notifications.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; it offers the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** The connection pool's state, for the metrics. */
interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The database's LISTEN/NOTIFY channels, through one listening connection opened on first use. */
  notifications: Notifications;
  close(): Promise<void>;
  /** The pool now; null on PGlite, which has one connection in the process and no pool. */
  poolStats(): PoolStats | null;
  /** The PGlite instance, for backups; undefined on PostgreSQL. */
  pglite?: PGlite;
}

// The sources' folder, from the sources and from the build alike.
export const MIGRATIONS_FOLDER = fromProjectRoot('src/server/db/migrations');

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** The listening connection's timings (tests shorten or lengthen them). */
      listener?: Omit<PostgresNotificationOptions, 'url'>;
    }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/**
 * The contrib extensions the schema uses (pg_trgm for the admin searches' indexes). Every PGlite that opens
 * Flujo's data must load them: writing a row updates those indexes, which need the extension's code.
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

/**
 * Any number: what matters is that every instance of Flujo asks for the same one. Picked to be unlikely to
 * collide with another application's advisory locks on a shared server.
 */
const MIGRATION_LOCK = 0x466c756a6f; // "Flujo" in ASCII

/**
 * Brings the schema up to date while holding a session-level advisory lock, so that instances starting
 * together on one database (a rollout, a scaled deployment's first start) migrate one after the other: the
 * first applies what is missing, the others then find nothing to do. Without it two of them would both see a
 * migration as pending and the second would fail on objects the first just made.
 */
async function migrateAlone(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    // After a failure the connection is closed rather than pooled: that ends its session, and the lock with it.
    client.release(broken);
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const max = options.poolSize ?? 20;
    const pool = new pg.Pool({ connectionString: options.url, max });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    await migrateAlone(pool);
    const notifications = new PostgresNotifications({ ...options.listener, url: options.url });
    return {
      db,
      kind: 'postgres',
      notifications,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max,
      }),
    };
  }
  // Loaded only when used: a PostgreSQL deployment starts faster without PGlite's modules.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }, extensions] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    pgliteExtensions(),
  ]);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions,
  });
  await client.waitReady;
  // Drizzle's types ask for a PGlite; its driver calls only `query` and `transaction` on it, which the wrapper has.
  const pgliteDb = drizzlePglite({ client: parsersOnTheInstance(client) as unknown as PGlite, schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  const notifications = pgliteNotifications(client);
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    pglite: client,
    notifications,
    close: async () => {
      await notifications.close();
      await client.close();
    },
    poolStats: () => null,
  };
}

/** What Drizzle's PGlite driver calls on the client it is given. */
interface DrizzlePgliteClient {
  query: Transaction['query'];
  transaction<T>(fn: (tx: Pick<Transaction, 'query'>) => Promise<T>): Promise<T>;
}

/**
 * The PGlite client Drizzle is given. Drizzle sends its type parsers (dates, timestamps and intervals, and their
 * arrays, left as text) with every query, and PGlite copies its own parser of every type and array type (about
 * 360) into a new object to merge them in, for every query: a tenth of an API request's CPU on the embedded
 * database (decision 194). Put on the instance instead, once a query brings them, they parse the same columns the
 * same way for every later query, and each query goes without them. Flujo reads the database only through Drizzle,
 * so no other reader expects PGlite's own parsing of those types.
 */
function parsersOnTheInstance(client: PGlite): DrizzlePgliteClient {
  const withoutParsers = (options?: QueryOptions): QueryOptions | undefined => {
    if (!options?.parsers) return options;
    const { parsers, ...rest } = options;
    Object.assign(client.parsers, parsers);
    return rest;
  };
  return {
    query: (text, params, options) => client.query(text, params, withoutParsers(options)),
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({ query: (text, params, options) => tx.query(text, params, withoutParsers(options)) }),
      ),
  };
}
