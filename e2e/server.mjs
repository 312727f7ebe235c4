// The app as `npm start` runs it, on a database of its own: a fresh PGlite directory, or the
// PostgreSQL database named by TEST_DATABASE_URL (emptied first) when the suite runs on PostgreSQL.
// With E2E_BUILD_DIR set, the web app is built there and the server runs from source (tsx), so that several
// checkouts of the project can run journeys at once without sharing dist/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { e2eServerStateFile } from './server-state.mjs';

if (process.env.TEST_DATABASE_URL) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(
    'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;',
  );
  await client.end();
  process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  // With DATABASE_URL the server runs as a real deployment: no demo purchases or demo workflows unless named.
  // The journeys buy credits and run the demos, so they ask for both.
  process.env.PAYMENT_PROVIDER ??= 'demo';
  process.env.DEMO_WORKFLOWS ??= 'true';
} else {
  process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'flujo-e2e-'));
}

// Tells the journeys' teardown (e2e/ledger-teardown.ts) where the books are, so it can reconcile them.
writeFileSync(
  e2eServerStateFile(process.env.PORT),
  JSON.stringify({ pid: process.pid, dataDir: process.env.DATA_DIR, databaseUrl: process.env.DATABASE_URL }),
);

const isolated = process.env.E2E_BUILD_DIR;
if (isolated) {
  const webDir = join(isolated, 'web');
  const built = spawnSync(
    'npx',
    ['vite', 'build', '--logLevel', 'warn', '--outDir', webDir, '--emptyOutDir'],
    {
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
  const compressed = spawnSync(process.execPath, ['scripts/precompress.mjs', webDir], { stdio: 'inherit' });
  if (compressed.status !== 0) process.exit(compressed.status ?? 1);
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, WEB_DIR: webDir, NODE_ENV: 'production', HOST: '127.0.0.1' },
  });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
} else {
  await import('../scripts/start.mjs');
}
