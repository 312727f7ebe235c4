// The app as `npm start` runs it, on a database of its own: a fresh PGlite directory, or the
// PostgreSQL database named by TEST_DATABASE_URL (emptied first) when the suite runs on PostgreSQL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

if (process.env.TEST_DATABASE_URL) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(
    'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;',
  );
  await client.end();
  process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
} else {
  process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'flujo-e2e-'));
}
await import('../scripts/start.mjs');
