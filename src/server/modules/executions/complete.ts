import { and, eq, gt } from 'drizzle-orm';
import type { TCompleteRunRequest, TExecution } from '../../../shared/contract/executions.js';
import { workflowExecutions } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { AppDeps } from '../../types.js';
import { getSetting } from '../settings/service.js';
import { deliverRun } from './dispatch.js';
import { getOwnRun, isOpen, runStatus } from './queries.js';
import { notifyRunChanged, waitForRunChange } from './run-events.js';

/** How long the complete call waits for the workflow's result before answering `running`. */
export const COMPLETE_WAIT_MS = 30_000;
const POLL_MS = 1_000;

/**
 * Sends the user's answers to the workflow: the run becomes `running` (its expiry window restarts now), the
 * first delivery is made, and, when the service accepted it, the call waits for the result a while.
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
  const [owned] = await deps.db
    .select({ id: workflowExecutions.id })
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)));
  if (!owned) throw notFound('Execution');
  const [started] = await deps.db
    .update(workflowExecutions)
    .set({
      status: 'running',
      inputData: input.responses,
      dispatchedAt: now,
      nextDispatchAt: now,
      expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
    })
    .where(
      and(
        eq(workflowExecutions.id, runId),
        eq(workflowExecutions.status, 'pending'),
        gt(workflowExecutions.expiresAt, now),
      ),
    )
    .returning({ id: workflowExecutions.id });
  if (!started) throw conflict('This run was already completed or has expired');
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
