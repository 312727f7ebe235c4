/**
 * The physical limit of starting a run: the bare debit transaction (conditional UPDATE of the balance, the run
 * row and the ledger row), sent by a client with no framework, at a fixed concurrency. A long-lived worker:
 * it prints "ready", then answers each line "<seconds>" on stdin with the transactions per second it managed.
 *
 * Usage: node --import tsx bench/lib/bare-debit.ts <file holding BareDebitOptions as JSON>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

export interface BareDebitOptions {
  kind: 'postgres' | 'pglite';
  /** PostgreSQL URL, or the PGlite data directory (already migrated and seeded). */
  target: string;
  userIds: string[];
  workflowId: string;
  price: number;
  concurrency: number;
}

const UPDATE = `update user_profiles set credits = credits - $2, updated_at = now()
  where id = $1 and credits >= $2 returning credits`;
const INSERT_RUN = `insert into workflow_executions (id, workflow_id, user_id, status, language, credits_used)
  values ($1, $2, $3, 'pending', 'en', $4)`;
const INSERT_LEDGER = `insert into credit_transactions (user_id, workflow_id, execution_id, amount, transaction_type)
  values ($1, $2, $3, $4, 'usage')`;

type Debit = (userId: string) => Promise<void>;

function postgresDebit(options: BareDebitOptions): { debit: Debit; close: () => Promise<void> } {
  const pool = new pg.Pool({
    connectionString: options.target,
    max: options.concurrency,
    // Told apart from the server's sessions when run-start samples pg_stat_activity.
    application_name: 'bench-bare-debit',
  });
  const debit: Debit = async (userId) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const updated = await client.query(UPDATE, [userId, options.price]);
      if (updated.rowCount !== 1) throw new Error('balance too low: seed more credits');
      const runId = randomUUID();
      await client.query(INSERT_RUN, [runId, options.workflowId, userId, options.price]);
      await client.query(INSERT_LEDGER, [userId, options.workflowId, runId, -options.price]);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
  };
  return { debit, close: () => pool.end() };
}

async function pgliteDebit(options: BareDebitOptions): Promise<{ debit: Debit; close: () => Promise<void> }> {
  // The schema's trigram indexes need the extension's code whenever a row of their tables is written.
  const db = new PGlite({ dataDir: options.target, extensions: { pg_trgm } });
  await db.waitReady;
  const debit: Debit = (userId) =>
    db.transaction(async (tx) => {
      const updated = await tx.query(UPDATE, [userId, options.price]);
      if (updated.rows.length !== 1) throw new Error('balance too low: seed more credits');
      const runId = randomUUID();
      await tx.query(INSERT_RUN, [runId, options.workflowId, userId, options.price]);
      await tx.query(INSERT_LEDGER, [userId, options.workflowId, runId, -options.price]);
    });
  return { debit, close: () => db.close() };
}

async function round(debit: Debit, options: BareDebitOptions, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await debit(options.userIds[next++ % options.userIds.length]!);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const options = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as BareDebitOptions;
  const { debit, close } = options.kind === 'postgres' ? postgresDebit(options) : await pgliteDebit(options);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'exit') break;
    process.stdout.write(`${await round(debit, options, Number(line))}\n`);
  }
  await close();
  // stdin stays referenced after the loop ends; the worker is done.
  process.exit(0);
}

await main();
