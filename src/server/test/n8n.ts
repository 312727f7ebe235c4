import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fromProjectRoot } from '../lib/project-root.js';
import { ident, postgresTarget, withAdminClient } from './template.js';

/**
 * The path of n8n's command, installed on first use into the machine's cache folder (scripts/ensure-n8n.mjs);
 * a missing or broken install throws: the n8n test and the builder-minutes bench fail rather than skip. The
 * install compiles no native addon; `sqlite` asks for n8n's SQLite driver, compiled then, once per machine.
 */
export function ensureN8n({ sqlite = false }: { sqlite?: boolean } = {}): string {
  const ensured = spawnSync(
    process.execPath,
    [fromProjectRoot('scripts/ensure-n8n.mjs'), ...(sqlite ? ['--sqlite'] : [])],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (ensured.status !== 0) throw new Error('n8n could not be installed (scripts/ensure-n8n.mjs)');
  return ensured.stdout.trim();
}

/** Where n8n keeps its workflows, credentials and users: SQLite in its user folder, or a PostgreSQL database. */
export type N8nDatabase = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/** n8n's settings for `database`. */
function n8nDatabaseEnvironment(database: N8nDatabase): NodeJS.ProcessEnv {
  if (database.kind === 'sqlite') return { DB_TYPE: 'sqlite' };
  const url = new URL(database.url);
  return {
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: url.hostname,
    DB_POSTGRESDB_PORT: url.port || '5432',
    DB_POSTGRESDB_DATABASE: decodeURIComponent(url.pathname.slice(1)),
    DB_POSTGRESDB_USER: decodeURIComponent(url.username),
    DB_POSTGRESDB_PASSWORD: decodeURIComponent(url.password),
  };
}

/**
 * An empty PostgreSQL database for n8n, beside the suite's databases on TEST_DATABASE_URL's server; `remove`
 * drops it.
 */
export async function n8nPostgresDatabase(
  suiteUrl: string,
): Promise<{ database: N8nDatabase; remove(): Promise<void> }> {
  const { adminUrl, base, urlFor } = postgresTarget(suiteUrl);
  const name = `${base}_n8n_${randomBytes(4).toString('hex')}`;
  await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE ${ident(name)}`));
  return {
    database: { kind: 'postgres', url: urlFor(name) },
    remove: () =>
      withAdminClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * n8n as a self-hosted builder runs it on loopback: its own user folder under `work`, its database, its port, no
 * telemetry, templates or task runners; `customExtensions` is a folder of packages loaded as custom nodes.
 */
export function n8nEnvironment(options: {
  work: string;
  port: number;
  encryptionKey: string;
  database: N8nDatabase;
  customExtensions?: string;
}): NodeJS.ProcessEnv {
  const url = `http://127.0.0.1:${options.port}/`;
  return {
    // Not a test runner's VITEST* variables: with them n8n's commands do nothing at all.
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))),
    NODE_ENV: 'production',
    N8N_USER_FOLDER: join(options.work, 'n8n'),
    ...(options.customExtensions ? { N8N_CUSTOM_EXTENSIONS: options.customExtensions } : {}),
    N8N_ENCRYPTION_KEY: options.encryptionKey,
    N8N_PORT: String(options.port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    WEBHOOK_URL: url,
    N8N_EDITOR_BASE_URL: url,
    N8N_LOG_LEVEL: 'warn',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_RUNNERS_ENABLED: 'false',
    ...n8nDatabaseEnvironment(options.database),
  };
}
