import { and, asc, lte } from 'drizzle-orm';
import { workflowExecutions } from '#server/db/schema.js';
import type { AppDeps } from '#server/types.js';
import { openStatusFilter } from './queries.js';
import { settleRun } from './settle.js';

const BATCH = 200;

/**
 * Expires open runs whose window has passed (no result, or never completed); settleRun refunds what was
 * charged and writes nothing for a run left uncharged. Safe on every instance at once and after any restart:
 * settleRun ends each run at most once.
 */
export async function expireOverdueRuns(deps: AppDeps): Promise<number> {
  const now = deps.now();
  let expired = 0;
  for (;;) {
    const due = await deps.db
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(and(openStatusFilter, lte(workflowExecutions.expiresAt, now)))
      .orderBy(asc(workflowExecutions.expiresAt))
      .limit(BATCH);
    let endedNow = 0;
    for (const { id } of due) {
      const ended = await settleRun(deps, id, {
        status: 'expired',
        errorCode: 'timeout',
        errorMessage: 'No result arrived from the workflow in time',
      });
      if (ended) endedNow += 1;
    }
    expired += endedNow;
    // A full batch that ended nothing was taken by another instance meanwhile: leave the rest to the next tick.
    if (due.length < BATCH || endedNow === 0) return expired;
  }
}
