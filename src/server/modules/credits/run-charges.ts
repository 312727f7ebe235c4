import { and, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.js';
import { userProfiles, userWorkflows, workflowExecutions, workflowRunTally } from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import type { Metrics } from '#server/lib/metrics.js';
import { applyLedgerEntry } from './ledger.js';

/** The facts of a run that say what its ending gives back. */
export interface ChargedFacts {
  creditsUsed: number;
  dispatchedAt: Date | null;
  chatMessageCount: number;
}

/**
 * Whether a run that ends other than completed gets its charge back. A run is charged when the person
 * commits to it (a survey's answers, a chat's first message wherever it is sent from; the public API's and
 * MCP's surveys at their one-step start), so a run that never reached the workflow was either never charged
 * or is a chat the assistant worked in and the person left: that one keeps its charge. A charged run the
 * assistant never answered (a first message the model could not answer) is given back like a failed one.
 */
export const refundsOnEnd = (run: ChargedFacts): boolean =>
  run.creditsUsed > 0 && (run.dispatchedAt !== null || run.chatMessageCount === 0);

/** Whether an ended run closed before its answers were sent (its page says so, by this code). */
export const endedBeforeSubmit = (run: { status: string; dispatchedAt: Date | null }): boolean =>
  run.status === 'expired' && run.dispatchedAt === null;

/**
 * Charges an open run of the web app its workflow's price, inside the caller's transaction: the survey's
 * answers or the chat's first message are recorded in that same transaction. A run is charged once: the
 * conditional update lets one of any number of concurrent callers through (credits_used is 0 only until
 * then; a price is at least 1), and the others find it charged. The debit itself is the ledger's one write
 * (applyLedgerEntry); without the balance it throws 402 INSUFFICIENT_CREDITS, and the caller's transaction,
 * rolled back, changes nothing. Returns the credits charged by this call (0: it was charged before, or it is a test run).
 */
export async function chargeRun(tx: Tx, metrics: Metrics, runId: string): Promise<number> {
  const [run] = await tx
    .update(workflowExecutions)
    .set({
      creditsUsed: sql`(select ${userWorkflows.creditsPerExecution} from ${userWorkflows} where ${userWorkflows.id} = ${workflowExecutions.workflowId})`,
    })
    // An admin's test run is charged to no one (decision 147): it never passes here.
    .where(
      and(
        eq(workflowExecutions.id, runId),
        eq(workflowExecutions.creditsUsed, 0),
        ne(workflowExecutions.origin, 'test'),
      ),
    )
    .returning({
      userId: workflowExecutions.userId,
      workflowId: workflowExecutions.workflowId,
      price: workflowExecutions.creditsUsed,
      paused: sql<boolean>`(select ${userWorkflows.pausedAt} is not null from ${userWorkflows} where ${userWorkflows.id} = ${workflowExecutions.workflowId})`,
    });
  if (!run) return 0;
  // A paused workflow (decision 146) takes no new work: the caller's transaction, rolled back, changes nothing.
  if (run.paused) throw new AppError('WORKFLOW_PAUSED', 'default');
  const balance = await applyLedgerEntry(
    tx,
    {
      userId: run.userId,
      amount: -run.price,
      type: 'usage',
      workflowId: run.workflowId,
      executionId: runId,
      noteKind: 'workflow_run',
    },
    metrics,
  );
  if (balance === null) {
    const [profile] = await tx
      .select({ credits: userProfiles.credits })
      .from(userProfiles)
      .where(eq(userProfiles.id, run.userId));
    throw new AppError('INSUFFICIENT_CREDITS', 'default', {
      required: run.price,
      balance: profile?.credits ?? 0,
    });
  }
  // The catalogue's run counter counts runs that were paid for, as it did when a start charged.
  await tx.insert(workflowRunTally).values({ workflowId: run.workflowId });
  return run.price;
}
