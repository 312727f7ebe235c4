import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { LEDGER_MISMATCH_SQL, type LedgerMismatch } from '../src/server/test/ledger-check.js';
import { e2eServerStateFile } from './server-state.mjs';

interface ServerState {
  pid: number;
  dataDir?: string;
  databaseUrl?: string;
}

const STOP_DEADLINE_MS = 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the e2e server the way an operator would (SIGTERM) and waits for it to finish. */
async function stopServer(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_DEADLINE_MS;
  while (alive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`e2e server ${pid} did not stop within ${STOP_DEADLINE_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function mismatchesOn(state: ServerState): Promise<{ users: number; mismatches: LedgerMismatch[] }> {
  const countSql = 'select count(*)::int as n from user_profiles';
  if (state.databaseUrl) {
    // PostgreSQL takes a second client while the server runs; every commit keeps the books balanced.
    const client = new pg.Client({ connectionString: state.databaseUrl });
    await client.connect();
    try {
      const users = (await client.query<{ n: number }>(countSql)).rows[0]?.n ?? 0;
      return { users, mismatches: (await client.query<LedgerMismatch>(LEDGER_MISMATCH_SQL)).rows };
    } finally {
      await client.end();
    }
  }
  // PGlite belongs to one process at a time: the server must be gone before the directory is opened.
  await stopServer(state.pid);
  return pgliteLedger(state.dataDir ?? '');
}

/**
 * The ledger check on a stopped server's embedded database (its DATA_DIR): the journeys' shared server here,
 * and the servers a journey starts for itself (workflow-incidents.spec.ts) before their directory goes.
 */
export async function pgliteLedger(
  dataDir: string,
): Promise<{ users: number; mismatches: LedgerMismatch[] }> {
  const countSql = 'select count(*)::int as n from user_profiles';
  const db = new PGlite({ dataDir: join(dataDir, 'pglite') });
  try {
    await db.waitReady;
    const users = (await db.query<{ n: number }>(countSql)).rows[0]?.n ?? 0;
    return { users, mismatches: (await db.query<LedgerMismatch>(LEDGER_MISMATCH_SQL)).rows };
  } finally {
    await db.close();
  }
}

/**
 * Playwright globalTeardown: after all journeys, every user's balance must equal the sum of their ledger and
 * be >= 0 on the e2e server's database, or the run fails.
 */
export default async function ledgerTeardown(): Promise<void> {
  const file = e2eServerStateFile(process.env.E2E_PORT ?? 3100);
  if (!existsSync(file)) throw new Error(`No e2e server state at ${file}: the ledger cannot be reconciled`);
  const state = JSON.parse(readFileSync(file, 'utf8')) as ServerState;
  rmSync(file, { force: true });
  const { users, mismatches } = await mismatchesOn(state);
  if (mismatches.length > 0) {
    throw new Error(
      `Ledger reconciliation after the journeys failed for ${mismatches.length} user(s): ${JSON.stringify(mismatches)}`,
    );
  }
  console.log(`Ledger reconciliation after the journeys: ${users} users, every balance equals its ledger.`);
  if (state.dataDir && !state.databaseUrl) rmSync(state.dataDir, { recursive: true, force: true });
}
