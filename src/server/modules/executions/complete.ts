import { and, eq } from 'drizzle-orm';
import type { TCompleteRunRequest, TExecution } from '#shared/contract/executions.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { conflict, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { readTranscript, transcriptResponses } from '../chat/service.js';
import { getSetting } from '../settings/service.js';
import { deliverRun } from './dispatch.js';
import { getOwnRun, isOpen, runStatus } from './queries.js';
import { notifyRunChanged, waitForRunChange } from './run-events.js';

/** How long the complete call waits for the workflow's result before answering `running`. */
export const COMPLETE_WAIT_MS = 30_000;
const POLL_MS = 1_000;

/**
 * Sends the user's answers to the workflow: the run becomes `running` (its expiry window restarts now), the
 * first delivery is made, and, when the service accepted it, the call waits for the result a while. A
 * survey's answers are the client's `responses`; a chat's are made from the transcript the server kept, and
 * the client's are ignored.
 */
export async function completeRun(
  deps: AppDeps,
  userId: string,
  runId: string,
  input: TCompleteRunRequest,
  stop?: AbortSignal,
): Promise<TExecution> {
  const timeoutMinutes = await getSetting(deps.db, 'webhook_timeout_minutes');
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Locked, so that a chat reply being added to the transcript lands before the responses are made from it
    // or not at all (appendChatTurns adds only to a pending run).
    const [run] = await tx
      .select({
        status: workflowExecutions.status,
        expiresAt: workflowExecutions.expiresAt,
        inputData: workflowExecutions.inputData,
        interactionType: userWorkflows.interactionType,
      })
      .from(workflowExecutions)
      .innerJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
      .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)))
      .for('update', { of: workflowExecutions });
    if (!run) throw notFound('Execution');
    if (run.status !== 'pending' || !run.expiresAt || run.expiresAt <= now) {
      throw conflict('This run was already completed or has expired');
    }
    // A chat's answers are the conversation the server kept, not the client's account of it.
    const responses =
      run.interactionType === 'chatbot'
        ? transcriptResponses(readTranscript(run.inputData))
        : input.responses;
    await tx
      .update(workflowExecutions)
      .set({
        status: 'running',
        inputData: responses,
        dispatchedAt: now,
        nextDispatchAt: now,
        expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
      })
      .where(eq(workflowExecutions.id, runId));
  });
  notifyRunChanged(runId);

  const delivery = await deliverRun(deps, runId);
  if (delivery === 'delivered') await waitForEnd(deps, runId, COMPLETE_WAIT_MS, stop);
  return getOwnRun(deps.db, userId, runId);
}

/** Waits (real time) until the run ends or `ms` pass; woken early by changes made on this instance. */
async function waitForEnd(deps: AppDeps, runId: string, ms: number, stop?: AbortSignal): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const status = await runStatus(deps.db, runId);
    const remaining = deadline - Date.now();
    if (!status || !isOpen(status) || remaining <= 0 || stop?.aborted) return;
    await waitForRunChange(runId, Math.min(POLL_MS, remaining), stop);
  }
}
