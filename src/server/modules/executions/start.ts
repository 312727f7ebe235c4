import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { TLanguage } from '#shared/contract/common.js';
import {
  creditTransactions,
  userProfiles,
  userWorkflows,
  workflowExecutions,
  workflowRunTally,
} from '#server/db/schema.js';
import { columnList, columnName, queryRows, ts } from '#server/db/sql-helpers.js';
import { AppError, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { getSetting } from '../settings/service.js';

export interface StartRunInput {
  workflowId: string;
  language?: TLanguage | undefined;
}

interface StartOutcome {
  accountStatus: string;
  /** The balance before the start (what a 402 reports). */
  credits: number;
  /** Null when the workflow does not exist, is inactive, or is private and the user is not an admin. */
  price: number | null;
  /** The balance after the charge; null when nothing was charged. */
  balance: number | null;
}

/**
 * Starts a run: charges the workflow's price and records the run in one statement, so a run exists exactly
 * when it was paid for. The charge is the ledger's conditional update (credits >= price, re-checked by
 * PostgreSQL after any concurrent update of the row), so any number of concurrent starts can never spend
 * more than the balance; the usage row, the run and its note for the run counter are inserted only when the
 * charge happened. This is the ledger's one write outside applyLedgerEntry: as one statement it costs one
 * round trip instead of seven, which is most of what a start costs (the budget in bench/run-start.ts).
 */
export async function startRun(
  deps: AppDeps,
  user: TSessionUser,
  input: StartRunInput,
): Promise<{ executionId: string }> {
  // Verified people (nearly everyone) pay no extra read on this path.
  if (!user.emailVerified && (await getSetting(deps.db, 'require_email_verification'))) {
    throw new AppError(
      'EMAIL_NOT_VERIFIED',
      'Verify your e-mail address before starting a run: open the link we sent you, or ask for a new one',
    );
  }
  const timeoutMinutes = await getSetting(deps.db, 'webhook_timeout_minutes');
  const now = deps.now();
  const executionId = randomUUID();
  const expiresAt = new Date(now.getTime() + timeoutMinutes * 60_000);
  // Tables and columns are named through the schema (the CTEs' own names and aliases are local), so renaming a
  // column there fails the typecheck here instead of this statement at run time.
  const wf = userWorkflows;
  const profile = userProfiles;
  const ledger = creditTransactions;
  const runs = workflowExecutions;
  const [outcome] = await queryRows<StartOutcome>(
    deps.db,
    sql`
    with workflow as (
      select ${wf.id} as id, ${wf.creditsPerExecution} as price from ${wf}
      where ${wf.id} = ${input.workflowId}::uuid and ${wf.isActive} and (${wf.isPublic} or ${user.isAdmin}::boolean)
    ), account as (
      select ${profile.accountStatus} as account_status, ${profile.credits} as credits from ${profile}
      where ${profile.id} = ${user.id}::uuid
    ), debit as (
      update ${profile}
      set ${columnName(profile.credits)} = ${profile.credits} - w.price, ${columnName(profile.updatedAt)} = now()
      from workflow w
      where ${profile.id} = ${user.id}::uuid and ${profile.accountStatus} = 'active' and ${profile.credits} >= w.price
      returning ${profile.credits} as balance, w.id as workflow_id, w.price
    ), usage as (
      insert into ${ledger} ${columnList(
        ledger.userId,
        ledger.amount,
        ledger.transactionType,
        ledger.workflowId,
        ledger.executionId,
        ledger.notes,
      )}
      select ${user.id}::uuid, -price, 'usage', workflow_id, ${executionId}::uuid, 'Workflow run' from debit
    ), run as (
      insert into ${runs} ${columnList(
        runs.id,
        runs.workflowId,
        runs.userId,
        runs.status,
        runs.language,
        runs.creditsUsed,
        runs.createdAt,
        runs.expiresAt,
      )}
      select ${executionId}::uuid, workflow_id, ${user.id}::uuid, 'pending', ${input.language ?? 'en'}, price,
        ${ts(now)}, ${ts(expiresAt)}
      from debit
    ), tally as (
      insert into ${workflowRunTally} ${columnList(workflowRunTally.workflowId)} select workflow_id from debit
    )
    select a.account_status as "accountStatus", a.credits, w.price, d.balance
    from account a left join workflow w on true left join debit d on true`,
  );
  if (!outcome || outcome.accountStatus !== 'active') {
    throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended');
  }
  if (outcome.price === null) throw notFound('Workflow');
  if (outcome.balance === null) {
    throw new AppError('INSUFFICIENT_CREDITS', 'You do not have enough credits to run this workflow', {
      required: outcome.price,
      balance: outcome.credits,
    });
  }
  return { executionId };
}
