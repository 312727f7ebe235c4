import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { TTransactionListQuery, TUserTransaction } from '#shared/contract/credits.js';
import { ledgerNoteText } from '#shared/i18n/ledger-notes.js';
import type { Db } from '#server/db/client.js';
import { creditTransactions, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { exactTotal, newestFirst, readPage } from '#server/db/sql-helpers.js';

/** Types whose rows always belong to a run: a null workflow there means the workflow was deleted. */
const RUN_TYPES = new Set(['usage', 'refund']);

/** One page of the user's ledger, newest first, and how many rows match in all. */
export async function listUserTransactions(
  db: Db,
  userId: string,
  query: TTransactionListQuery,
): Promise<{ rows: TUserTransaction[]; total: number }> {
  const conditions: SQL[] = [eq(creditTransactions.userId, userId)];
  if (query.type) conditions.push(eq(creditTransactions.transactionType, query.type));
  const where = and(...conditions);

  const { rows, total } = await readPage(
    db,
    creditTransactions,
    where,
    // Same order as ledger_user_created_idx; the id keeps rows written in one transaction in a stable order.
    [newestFirst(creditTransactions.createdAt), desc(creditTransactions.id)],
    query,
    db
      .select({ t: creditTransactions, workflowName: userWorkflows.name, runId: workflowExecutions.id })
      .from(creditTransactions)
      .leftJoin(userWorkflows, eq(userWorkflows.id, creditTransactions.workflowId))
      // The run's page is linked only while the run exists, and only the owner's own run (a key lookup per row).
      .leftJoin(
        workflowExecutions,
        and(
          eq(workflowExecutions.id, creditTransactions.executionId),
          eq(workflowExecutions.userId, creditTransactions.userId),
        ),
      )
      .$dynamic(),
    exactTotal,
  );

  return {
    total,
    rows: rows.map(({ t, workflowName, runId }) => ({
      id: t.id,
      transaction_type: t.transactionType,
      amount: t.amount,
      // Clients from before note kinds read `notes`: it keeps the English wording next to the kind.
      notes: ledgerNoteText('en', { kind: t.noteKind, params: t.noteParams, notes: t.notes }),
      note_kind: t.noteKind,
      note_params: t.noteParams,
      workflow_name: workflowName ?? null,
      workflow_deleted: t.workflowId === null && RUN_TYPES.has(t.transactionType),
      created_at: t.createdAt.toISOString(),
      usd_amount: t.usdAmount,
      plan_name: t.planName,
      execution_id: runId ?? null,
    })),
  };
}
