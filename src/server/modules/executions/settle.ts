import { and, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.js';
import { workflowExecutions } from '#server/db/schema.js';
import { ts } from '#server/db/sql-helpers.js';
import type { Metrics } from '#server/lib/metrics.js';
import type { TRunFailureCode } from '#shared/contract/executions.js';
import { applyLedgerEntry, refundsOnEnd } from '../credits/service.js';
import { queueRunEnded } from '../webhooks/service.js';
import { recordRunEnded } from '../notifications/service.js';
import { countRunEnded } from '../operations/service.js';
import type { Config } from '#server/config.js';
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

/**
 * Why a run did not complete: a code its readers word in their language, and the detail for admins (for
 * `workflow_failed`, the workflow's own message, if any, which its customer reads too).
 */
interface RunFailure {
  errorCode: TRunFailureCode;
  errorMessage: string | null;
}

export type RunOutcome =
  | { status: 'completed'; fields: ResultFields }
  | ({ status: 'failed'; fields?: ResultFields } & RunFailure)
  /**
   * Only settles when the run's expiry really is past at `now` (the expiry may have moved meanwhile), or, with
   * `unsubmitted`, a run still waiting for its answers that the person's newer runs push out (open_runs_per_user).
   * An expired run that never reached the workflow keeps no failure code or text: its page says that it was
   * left (endedBeforeSubmit).
   */
  | ({ status: 'expired'; unsubmitted?: boolean } & RunFailure);

export interface SettleDeps {
  db: Db;
  now: () => Date;
  metrics: Metrics;
  /** For the alert mails an ending may write (operations/counting.ts). */
  config: Config;
}

/**
 * The one place a run ends. The conditional update lets exactly one of several concurrent endings (a
 * callback, a failure, the sweeper, on any instance) win; a failed or expired run that was charged gets its
 * credits back in the same transaction when refundsOnEnd (credits/run-charges.ts) says so (a run left before it was
 * charged has nothing to give back and writes no ledger row), and the ledger's unique index on (run, refund)
 * makes a second refund impossible.
 * The run's ending is queued for the account's webhooks in the same transaction (webhooks/service.ts).
 * Its owner is told of the ending, when they probably did not watch it, by a notification written in the
 * same transaction (notifications/record.ts).
 * The ending is counted for the workflow's health, alerts and pause in the same transaction (operations).
 * Readers following the run are told by the database when this commits (run-events.ts). Returns whether this
 * call ended the run; only then is the ending counted.
 */
export async function settleRun(deps: SettleDeps, runId: string, outcome: RunOutcome): Promise<boolean> {
  const settled = await deps.db.transaction((tx) => settleRunIn(tx, deps, runId, outcome));
  if (settled) deps.metrics.runFinished(outcome.status);
  return settled;
}

/** settleRun inside the caller's transaction; the caller counts the ending once it commits. */
export async function settleRunIn(
  tx: Tx,
  deps: Omit<SettleDeps, 'db'>,
  runId: string,
  outcome: RunOutcome,
): Promise<boolean> {
  const now = deps.now();
  const fields = outcome.status === 'expired' ? {} : (outcome.fields ?? {});
  const unsubmitted = outcome.status === 'expired' && outcome.unsubmitted === true;
  const [run] = await tx
    .update(workflowExecutions)
    .set({
      status: outcome.status,
      completedAt: now,
      executionTimeMs: sql`greatest(0, round(extract(epoch from (${ts(now)} - coalesce(${workflowExecutions.dispatchedAt}, ${workflowExecutions.createdAt}))) * 1000))::int`,
      nextDispatchAt: null,
      errorCode: failureUnlessLeft(outcome, 'errorCode'),
      errorMessage: failureUnlessLeft(outcome, 'errorMessage'),
      ...fields,
    })
    .where(
      and(
        eq(workflowExecutions.id, runId),
        unsubmitted ? eq(workflowExecutions.status, 'pending') : openStatusFilter,
        outcome.status === 'expired' && !unsubmitted ? lte(workflowExecutions.expiresAt, now) : undefined,
      ),
    )
    .returning({
      userId: workflowExecutions.userId,
      workflowId: workflowExecutions.workflowId,
      creditsUsed: workflowExecutions.creditsUsed,
      dispatchedAt: workflowExecutions.dispatchedAt,
      chatMessageCount: workflowExecutions.chatMessageCount,
      notifyUrl: workflowExecutions.notifyUrl,
      executionTimeMs: workflowExecutions.executionTimeMs,
      origin: workflowExecutions.origin,
      errorCode: workflowExecutions.errorCode,
    });
  if (!run) return false;
  // The workflow's health, failures in a row, incidents and pause (decisions 145, 146).
  await countRunEnded(tx, deps, {
    id: runId,
    workflowId: run.workflowId,
    origin: run.origin,
    status: outcome.status,
    errorCode: run.errorCode,
    dispatchedAt: run.dispatchedAt,
    executionTimeMs: run.executionTimeMs,
  });
  // The account's webhooks hear of every run it really started: not of one left before it was sent and
  // charged (the person only opened the form).
  if (outcome.status === 'completed' || run.creditsUsed > 0 || run.dispatchedAt !== null) {
    await queueRunEnded(tx, now, { id: runId, ...run, status: outcome.status });
  }
  if (outcome.status !== 'completed' && refundsOnEnd(run)) {
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
  // A run closed because its person opened newer ones was never sent: there is nothing to tell.
  if (!unsubmitted) {
    await recordRunEnded(tx, {
      runId,
      userId: run.userId,
      workflowId: run.workflowId,
      status: outcome.status,
      origin: run.origin,
      creditsUsed: run.creditsUsed,
      executionTimeMs: run.executionTimeMs,
      dispatchedAt: run.dispatchedAt,
    });
  }
  return true;
}

/**
 * A failure's code or detail as the run stores it: none for a completed run, nor for an expired run that never
 * reached the workflow (the person left before sending; there is nothing to explain but that).
 */
function failureUnlessLeft<K extends keyof RunFailure>(
  outcome: RunOutcome,
  field: K,
): RunFailure[K] | SQL | null {
  if (outcome.status === 'completed') return null;
  const value: RunFailure[K] = outcome[field];
  if (outcome.status === 'failed' || value === null) return value;
  return sql`case when ${workflowExecutions.dispatchedAt} is null then null else ${value}::text end`;
}
