import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/sql-helpers.js';

/**
 * Users whose balance differs from their ledger sum or is negative. Plain SQL, so the journeys' teardown
 * (e2e/ledger-teardown.ts) runs exactly the same check on the e2e server's database.
 */
export const LEDGER_MISMATCH_SQL = `
  select p.id, p.credits, coalesce(sum(t.amount), 0)::int as ledger
  from user_profiles p left join credit_transactions t on t.user_id = p.id
  group by p.id, p.credits
  having p.credits <> coalesce(sum(t.amount), 0) or p.credits < 0`;

export interface LedgerMismatch {
  id: string;
  credits: number;
  ledger: number;
}

/** Empty when the books are right: for every user, balance = sum of ledger amounts, and balance >= 0. */
export async function ledgerMismatches(db: Db): Promise<LedgerMismatch[]> {
  return queryRows<LedgerMismatch>(db, sql.raw(LEDGER_MISMATCH_SQL));
}
