import { and, eq, gte, sql } from 'drizzle-orm';
import type { TLedgerNoteKind, TLedgerNoteParams, TTransactionType } from '#shared/contract/credits.js';
import type { Tx } from '#server/db/client.js';
import { creditTransactions, userProfiles } from '#server/db/schema.js';
import type { Metrics } from '#server/lib/metrics.js';

export interface LedgerEntry {
  /** The row's id when the caller must name it elsewhere (a receipt); a fresh one otherwise. */
  id?: string;
  userId: string;
  amount: number;
  type: TTransactionType;
  workflowId?: string | null;
  executionId?: string | null;
  usdAmount?: string | null;
  planName?: string | null;
  /** Defaults to `admin_adjustment` for that type and `other` for the rest; the app's producers all name one. */
  noteKind?: TLedgerNoteKind;
  noteParams?: TLedgerNoteParams;
  /** Free text: an admin's reason. */
  notes?: string | null;
  reference?: string | null;
}

/**
 * The one way credits change: a conditional update of the balance (never read-then-write, so concurrent
 * debits cannot overdraw) and the ledger row, inside the caller's transaction. A run start makes the same
 * two writes inside its single charging statement (executions/start.ts), for speed. Both count the credits
 * granted or spent in `metrics` once the row is written, before the caller's commit: a transaction that
 * fails after that (its connection lost at the commit, say) leaves the count ahead by that movement. The
 * metrics show the flow of credits; the ledger is the account of them.
 * Returns the new balance, or null when the balance would go below zero (nothing is written then).
 */
export async function applyLedgerEntry(tx: Tx, entry: LedgerEntry, metrics: Metrics): Promise<number | null> {
  const [updated] = await tx
    .update(userProfiles)
    .set({ credits: sql`${userProfiles.credits} + ${entry.amount}`, updatedAt: sql`now()` })
    .where(and(eq(userProfiles.id, entry.userId), gte(userProfiles.credits, -entry.amount)))
    .returning({ credits: userProfiles.credits });
  if (!updated) return null;
  const noteKind = entry.noteKind ?? (entry.type === 'admin_adjustment' ? 'admin_adjustment' : 'other');
  await tx.insert(creditTransactions).values({
    ...(entry.id ? { id: entry.id } : {}),
    userId: entry.userId,
    amount: entry.amount,
    transactionType: entry.type,
    workflowId: entry.workflowId ?? null,
    executionId: entry.executionId ?? null,
    usdAmount: entry.usdAmount ?? null,
    planName: entry.planName ?? null,
    noteKind,
    noteParams: entry.noteParams ?? {},
    notes: entry.notes ?? null,
    reference: entry.reference ?? null,
  });
  metrics.creditsMoved(noteKind, entry.amount);
  return updated.credits;
}
