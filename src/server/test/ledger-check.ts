import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/sql-helpers.js';

/** Users whose balance differs from their ledger sum or is negative; empty when the books are right. */
export async function ledgerMismatches(
  db: Db,
): Promise<Array<{ id: string; credits: number; ledger: number }>> {
  return queryRows<{ id: string; credits: number; ledger: number }>(
    db,
    sql`
    select p.id, p.credits, coalesce(sum(t.amount), 0)::int as ledger
    from user_profiles p left join credit_transactions t on t.user_id = p.id
    group by p.id, p.credits
    having p.credits <> coalesce(sum(t.amount), 0) or p.credits < 0`,
  );
}
