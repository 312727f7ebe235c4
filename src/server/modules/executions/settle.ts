import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { workflowExecutions } from '#server/db/schema.js';
import { ts } from '#server/db/sql-helpers.js';
import type { Metrics } from '#server/lib/metrics.js';
import { applyLedgerEntry } from '../credits/service.js';
import { openStatusFilter } from './queries.js';

/** What a run's result sets, whatever brought it (callback, synchronous answer). */
export interface ResultFields {
  outputType?: 'text' | 'image' | 'video' | 'file' | null;
  outputUrl?: string | null;
  outputFilename?: string | null;
  outputSize?: number | null;
  resultPath?: string | null;
  /** When a stored file (resultPath) is deleted by the retention job. */
  fileExpiresAt?: Date | null;
  outputData?: unknown;
}

export type RunOutcome =
  | { status: 'completed'; fields: ResultFields }
  | { status: 'failed'; errorMessage: string; fields?: ResultFields }
  /** Only settles when the run's expiry really is past at `now` (the expiry may have moved meanwhile). */
  | { status: 'expired'; errorMessage: string };

export interface SettleDeps {
  db: Db;
  now: () => Date;
  metrics: Metrics;
}

/**
 * The one place a run ends. The conditional update lets exactly one of several concurrent endings (a
 * callback, a failure, the sweeper, on any instance) win; a failed or expired run gets its credits back in
 * the same transaction, and the ledger's unique index on (run, refund) makes a second refund impossible.
 * Readers following the run are told by the database when this commits (run-events.ts). Returns whether this
 * call ended the run; only then is the ending counted.
 */
export async function settleRun(deps: SettleDeps, runId: string, outcome: RunOutcome): Promise<boolean> {
  const now = deps.now();
  const fields = outcome.status === 'expired' ? {} : (outcome.fields ?? {});
  const settled = await deps.db.transaction(async (tx) => {
    const [run] = await tx
      .update(workflowExecutions)
      .set({
        status: outcome.status,
        completedAt: now,
        executionTimeMs: sql`greatest(0, round(extract(epoch from (${ts(now)} - coalesce(${workflowExecutions.dispatchedAt}, ${workflowExecutions.createdAt}))) * 1000))::int`,
        nextDispatchAt: null,
        errorMessage: outcome.status === 'completed' ? null : outcome.errorMessage,
        ...fields,
      })
      .where(
        and(
          eq(workflowExecutions.id, runId),
          openStatusFilter,
          outcome.status === 'expired' ? lte(workflowExecutions.expiresAt, now) : undefined,
        ),
      )
      .returning({
        userId: workflowExecutions.userId,
        workflowId: workflowExecutions.workflowId,
        creditsUsed: workflowExecutions.creditsUsed,
      });
    if (!run) return false;
    if (outcome.status !== 'completed' && run.creditsUsed > 0) {
      await applyLedgerEntry(
        tx,
        {
          userId: run.userId,
          amount: run.creditsUsed,
          type: 'refund',
          workflowId: run.workflowId,
          executionId: runId,
          noteKind: outcome.status === 'expired' ? 'refund_run_expired' : 'refund_run_failed',
        },
        deps.metrics,
      );
    }
    return true;
  });
  if (settled) deps.metrics.runFinished(outcome.status);
  return settled;
}
