import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TSessionUser } from '../../../shared/contract/auth.js';
import type { TLanguage } from '../../../shared/contract/common.js';
import { userProfiles, userWorkflows, workflowExecutions } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { AppDeps } from '../../types.js';
import { applyLedgerEntry } from '../credits/ledger.js';
import { getSetting } from '../settings/service.js';
import { noteRunStarted } from './tally.js';

export interface StartRunInput {
  workflowId: string;
  language?: TLanguage | undefined;
}

/**
 * Starts a run: charges the workflow's price and records the run in one transaction, so a run exists
 * exactly when it was paid for. The charge is a conditional update (see applyLedgerEntry), so any number of
 * concurrent starts can never spend more than the balance.
 */
export async function startRun(
  deps: AppDeps,
  user: TSessionUser,
  input: StartRunInput,
): Promise<{ executionId: string }> {
  const timeoutMinutes = await getSetting(deps.db, 'webhook_timeout_minutes');
  const now = deps.now();
  const executionId = randomUUID();
  await deps.db.transaction(async (tx) => {
    // One read for both checks: the account may run, and the workflow is active (and visible to it).
    const [found] = await tx
      .select({
        accountStatus: userProfiles.accountStatus,
        credits: userProfiles.credits,
        workflowId: userWorkflows.id,
        isPublic: userWorkflows.isPublic,
        price: userWorkflows.creditsPerExecution,
      })
      .from(userProfiles)
      .leftJoin(userWorkflows, and(eq(userWorkflows.id, input.workflowId), eq(userWorkflows.isActive, true)))
      .where(eq(userProfiles.id, user.id));
    if (!found || found.accountStatus !== 'active') {
      throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    if (!found.workflowId || found.price === null || (!found.isPublic && !user.isAdmin)) {
      throw notFound('Workflow');
    }
    const workflow = { id: found.workflowId, price: found.price };
    const profile = { credits: found.credits };

    const balance = await applyLedgerEntry(tx, {
      userId: user.id,
      amount: -workflow.price,
      type: 'usage',
      workflowId: workflow.id,
      executionId,
      notes: 'Workflow run',
    });
    if (balance === null) {
      throw new AppError('INSUFFICIENT_CREDITS', 'You do not have enough credits to run this workflow', {
        required: workflow.price,
        balance: profile.credits,
      });
    }
    await tx.insert(workflowExecutions).values({
      id: executionId,
      workflowId: workflow.id,
      userId: user.id,
      status: 'pending',
      language: input.language ?? 'en',
      creditsUsed: workflow.price,
      createdAt: now,
      // A run nobody completes is expired (and refunded) by the sweeper after the same window.
      expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
    });
    await noteRunStarted(tx, workflow.id);
  });
  return { executionId };
}
