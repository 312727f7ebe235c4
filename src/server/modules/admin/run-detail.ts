import { and, asc, eq, or } from 'drizzle-orm';
import type { TAdminRunDetail } from '#shared/contract/operations.js';
import type { Db } from '#server/db/client.js';
import { creditTransactions, userProfiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import { notFound } from '#server/lib/errors.js';
import { deliveryLogOf } from '../operations/service.js';

/**
 * A run with its delivery log and its ledger rows, as the admin's run detail shows it (decision 144): the
 * panel's `GET /api/admin/executions/{id}` and the admin API's `GET /api/v1/admin/runs/{id}` (decision 165).
 */
export async function runDetail(db: Db, runId: string): Promise<TAdminRunDetail> {
  const [found] = await db
    .select({ run: workflowExecutions, name: userWorkflows.name, email: userProfiles.email })
    .from(workflowExecutions)
    .innerJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .leftJoin(userProfiles, eq(userProfiles.id, workflowExecutions.userId))
    .where(eq(workflowExecutions.id, runId));
  if (!found) throw notFound('execution');
  const { run } = found;
  const [log, ledger] = await Promise.all([
    deliveryLogOf(db, runId),
    db
      .select({
        id: creditTransactions.id,
        amount: creditTransactions.amount,
        type: creditTransactions.transactionType,
        createdAt: creditTransactions.createdAt,
      })
      .from(creditTransactions)
      // One arm per type, so each is one lookup in its partial unique index (an IN list would scan).
      .where(
        or(
          and(eq(creditTransactions.executionId, runId), eq(creditTransactions.transactionType, 'usage')),
          and(eq(creditTransactions.executionId, runId), eq(creditTransactions.transactionType, 'refund')),
        ),
      )
      .orderBy(asc(creditTransactions.createdAt)),
  ]);
  return {
    id: run.id,
    workflow: { id: run.workflowId, name: found.name },
    user: { id: run.userId, email: found.email },
    status: run.status,
    origin: run.origin,
    createdAt: iso(run.createdAt),
    dispatchedAt: isoOrNull(run.dispatchedAt),
    completedAt: isoOrNull(run.completedAt),
    expiresAt: isoOrNull(run.expiresAt),
    creditsUsed: run.creditsUsed,
    dispatchAttempts: run.dispatchAttempts,
    canRetryDelivery: run.status === 'running' && run.nextDispatchAt !== null,
    errorCode: run.errorCode,
    errorMessage: run.errorMessage,
    progressMessage: run.progressMessage,
    inputData: run.inputData,
    outputType: run.outputType,
    outputData: run.outputData,
    outputFilename: run.outputFilename,
    outputUrl: run.outputUrl,
    log,
    ledger: ledger.map((row) => ({ ...row, createdAt: iso(row.createdAt) })),
  };
}
