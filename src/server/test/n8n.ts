import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fromProjectRoot } from '../lib/project-root.js';

/**
 * The path of n8n's command, installed on first use into the machine's cache folder (scripts/ensure-n8n.mjs);
 * a missing or broken install throws: the n8n test and the builder-minutes bench fail rather than skip.
 */
export function ensureN8n(): string {
  const ensured = spawnSync(process.execPath, [fromProjectRoot('scripts/ensure-n8n.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (ensured.status !== 0) throw new Error('n8n could not be installed (scripts/ensure-n8n.mjs)');
  return ensured.stdout.trim();
}

/**
 * n8n as a self-hosted builder runs it on loopback: its own user folder under `work` (SQLite), its port, no
 * telemetry, templates or task runners; `customExtensions` is a folder of packages loaded as custom nodes.
 */
export function n8nEnvironment(options: {
  work: string;
  port: number;
  encryptionKey: string;
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
    DB_TYPE: 'sqlite',
  };
}
