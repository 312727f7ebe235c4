import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { TLanguage } from '#shared/contract/common.js';
import type { ConfigValues } from '#shared/contract/config.js';
import type { TSentAnswer } from '#shared/contract/executions.js';
import type { DbOrTx } from '#server/db/client.js';
import { preparedStatement } from '#server/db/prepared.js';
import {
  apiKeys,
  creditTransactions,
  idempotencyKeys,
  userProfiles,
  userWorkflows,
  workflowExecutions,
  workflowRunTally,
} from '#server/db/schema.js';
import { columnList, columnName } from '#server/db/sql-helpers.js';
import { AppError, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { monthStart, spentThisMonthSql } from '../apikeys/service.js';
import { getSetting } from '../settings/service.js';
import { attemptClaim, type ClaimedRun } from './dispatch.js';

export interface StartRunInput {
  workflowId: string;
  language?: TLanguage | undefined;
}

/** The live settings a start needs. */
export const START_SETTINGS = ['webhook_timeout_minutes', 'require_email_verification'] as const;
export type StartSettings = Pick<ConfigValues, (typeof START_SETTINGS)[number]>;

export interface StartRunOptions {
  /** The settings, when the caller read them with its own lookup; read here otherwise. */
  settings?: StartSettings;
  /**
   * A start through an API key: the statement locks the key's row, refuses a price that would pass its
   * monthly limit (402 SPENDING_LIMIT) and adds the charge to its spending of the month.
   */
  apiKeyId?: string;
  /** An Idempotency-Key, claimed by the same statement (a twin's claim fails, and undoes its whole start). */
  idempotency?: { key: string; requestHash: string };
  /**
   * A survey's answers sent with the start (the public API): the run begins `running` with them, and its
   * first delivery attempt is claimed for this instance in the same write.
   */
  answers?: TSentAnswer[];
}

type RunRow = typeof workflowExecutions.$inferSelect;

export interface StartedRun {
  executionId: string;
  price: number;
  /** The run as the statement wrote it. */
  run: RunRow;
  /** With answers: the first delivery attempt, claimed, for deliverClaimed. */
  delivery?: ClaimedRun;
}

/** The variants of the start statement; each is prepared under a name of its own. */
interface Variant {
  apiKey: boolean;
  idempotency: boolean;
  answers: boolean;
}

interface StartOutcome {
  accountStatus: string;
  /** The balance before the start (what a 402 reports). */
  credits: number;
  /** Null when the workflow does not exist, is inactive, or is private and the user is not an admin. */
  price: number | null;
  /** The balance after the charge; null when nothing was charged. */
  balance: number | null;
  /** An API start: what is left of the key's month (null: no limit), and whether the key still exists. */
  remaining?: number | null;
  keyFound?: boolean;
}

const p = (name: string) => sql.placeholder(name);
const timestamp = (name: string) => sql`${p(name)}::timestamptz`;

/**
 * The statement, for one variant. Tables and columns are named through the schema (the CTEs' own names and
 * aliases are local), so renaming a column there fails the typecheck here instead of this statement at run
 * time. Without an API key it is the web's start; the key adds its lock, its limit and its spending; answers
 * write the run `running` with its first attempt claimed; an Idempotency-Key adds its claim.
 */
function startStatement(v: Variant): SQL {
  const wf = userWorkflows;
  const profile = userProfiles;
  const ledger = creditTransactions;
  const runs = workflowExecutions;
  const month = timestamp('month');
  const spent = spentThisMonthSql(month);
  const opt = (on: boolean, part: SQL) => (on ? part : sql``);
  return sql`
    with workflow as (
      select ${wf.id} as id, ${wf.creditsPerExecution} as price from ${wf}
      where ${wf.id} = ${p('workflowId')}::uuid and ${wf.isActive} and (${wf.isPublic} or ${p('isAdmin')}::boolean)
    ), account as (
      select ${profile.accountStatus} as account_status, ${profile.credits} as credits from ${profile}
      where ${profile.id} = ${p('userId')}::uuid
    ), ${opt(
      v.apiKey,
      sql`key as materialized (
      select ${apiKeys.monthlyCreditLimit} - ${spent} as remaining, true as found from ${apiKeys}
      where ${apiKeys.id} = ${p('keyId')}::uuid
      for update
    ), `,
    )}debit as (
      update ${profile}
      set ${columnName(profile.credits)} = ${profile.credits} - w.price, ${columnName(profile.updatedAt)} = now()
      from workflow w${opt(v.apiKey, sql`, key k`)}
      where ${profile.id} = ${p('userId')}::uuid and ${profile.accountStatus} = 'active' and ${profile.credits} >= w.price${opt(
        v.apiKey,
        sql` and (k.remaining is null or w.price <= k.remaining)`,
      )}
      returning ${profile.credits} as balance, w.id as workflow_id, w.price
    ), ${opt(
      v.apiKey,
      sql`spend as (
      update ${apiKeys}
      set ${columnName(apiKeys.spentCredits)} = ${spent} + d.price, ${columnName(apiKeys.spentMonth)} = ${month}
      from debit d where ${apiKeys.id} = ${p('keyId')}::uuid
    ), `,
    )}usage as (
      insert into ${ledger} ${columnList(
        ledger.userId,
        ledger.amount,
        ledger.transactionType,
        ledger.workflowId,
        ledger.executionId,
        ledger.noteKind,
      )}
      select ${p('userId')}::uuid, -price, 'usage', workflow_id, ${p('executionId')}::uuid, 'workflow_run' from debit
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
        ...(v.answers
          ? [
              runs.inputData,
              runs.dispatchedAt,
              runs.nextDispatchAt,
              runs.dispatchAttempts,
              runs.resultTokenHash,
            ]
          : []),
      )}
      select ${p('executionId')}::uuid, workflow_id, ${p('userId')}::uuid, ${v.answers ? 'running' : 'pending'},
        ${p('language')}, price, ${timestamp('now')}, ${timestamp('expiresAt')}${opt(
          v.answers,
          sql`, ${p('inputData')}::jsonb, ${timestamp('now')}, ${timestamp('leaseUntil')}, 1, ${p('tokenHash')}`,
        )}
      from debit
    ), ${opt(
      v.idempotency,
      sql`claim as (
      insert into ${idempotencyKeys} ${columnList(
        idempotencyKeys.userId,
        idempotencyKeys.key,
        idempotencyKeys.requestHash,
        idempotencyKeys.statusCode,
        idempotencyKeys.response,
      )}
      select ${p('userId')}::uuid, ${p('idempotencyKey')}, ${p('requestHash')}, 201, ${p('response')}::jsonb
      from debit
    ), `,
    )}tally as (
      insert into ${workflowRunTally} ${columnList(workflowRunTally.workflowId)} select workflow_id from debit
    )
    select a.account_status as "accountStatus", a.credits, w.price, d.balance${opt(
      v.apiKey,
      sql`, k.remaining, coalesce(k.found, false) as "keyFound"`,
    )}
    from account a left join workflow w on true left join debit d on true${opt(
      v.apiKey,
      sql` left join key k on true`,
    )}`;
}

const statements = new Map<
  string,
  ReturnType<typeof preparedStatement<StartOutcome, Record<string, unknown>>>
>();

function statementFor(v: Variant) {
  const name = `start_run${v.apiKey ? '_key' : ''}${v.idempotency ? '_idempotent' : ''}${v.answers ? '_answered' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    statement = preparedStatement<StartOutcome, Record<string, unknown>>(name, () => startStatement(v));
    statements.set(name, statement);
  }
  return statement;
}

/**
 * Starts a run: charges the workflow's price and records the run in one statement, so a run exists exactly
 * when it was paid for. The charge is the ledger's conditional update (credits >= price, re-checked by
 * PostgreSQL after any concurrent update of the row), so any number of concurrent starts can never spend
 * more than the balance; the usage row, the run and its note for the run counter (and for an API key its
 * spending, its Idempotency-Key) are written only when the charge happened. This is the ledger's one write
 * outside applyLedgerEntry: as one statement it costs one round trip instead of seven, and an API start's key
 * lock, spending, Idempotency-Key and first delivery claim no longer need a transaction and a complete call of
 * their own; that is most of what a start costs (the budgets in bench/run-start.ts and bench/api-runs.ts). The
 * web, the public API and the MCP server all start runs here.
 */
export async function startRun(
  deps: AppDeps,
  user: TSessionUser,
  input: StartRunInput,
  options: StartRunOptions = {},
): Promise<StartedRun> {
  const db: DbOrTx = deps.db;
  // Verified people (nearly everyone) pay no extra read on this path.
  const mustVerify =
    !user.emailVerified &&
    (options.settings
      ? options.settings.require_email_verification
      : await getSetting(db, 'require_email_verification'));
  if (mustVerify) throw new AppError('EMAIL_NOT_VERIFIED', 'default');
  const timeoutMinutes =
    options.settings?.webhook_timeout_minutes ?? (await getSetting(db, 'webhook_timeout_minutes'));
  const now = deps.now();
  const executionId = randomUUID();
  const expiresAt = new Date(now.getTime() + timeoutMinutes * 60_000);
  const language = input.language ?? 'en';
  const claim = options.answers ? attemptClaim(now) : undefined;
  const variant: Variant = {
    apiKey: options.apiKeyId !== undefined,
    idempotency: options.idempotency !== undefined,
    answers: options.answers !== undefined,
  };
  const values: Record<string, unknown> = {
    workflowId: input.workflowId,
    isAdmin: user.isAdmin,
    userId: user.id,
    executionId,
    language,
    now: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  if (options.apiKeyId !== undefined) {
    values.keyId = options.apiKeyId;
    values.month = monthStart(now).toISOString();
  }
  if (options.idempotency) {
    values.idempotencyKey = options.idempotency.key;
    values.requestHash = options.idempotency.requestHash;
    values.response = JSON.stringify({ runId: executionId });
  }
  if (options.answers && claim) {
    values.inputData = JSON.stringify(options.answers);
    values.leaseUntil = claim.leaseUntil.toISOString();
    values.tokenHash = claim.tokenHash;
  }
  const [outcome] = await statementFor(variant)(db, values);
  if (!outcome || outcome.accountStatus !== 'active') {
    throw new AppError('ACCOUNT_SUSPENDED', 'default');
  }
  // Revoked since the request was authorised: nothing was charged through it.
  if (variant.apiKey && !outcome.keyFound) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
  if (outcome.price === null) throw notFound('workflow');
  const remaining = outcome.remaining ?? null;
  if (outcome.balance === null && outcome.credits >= outcome.price && remaining !== null) {
    throw new AppError('SPENDING_LIMIT', 'default', {
      required: outcome.price,
      remaining: Math.max(0, remaining),
    });
  }
  if (outcome.balance === null) {
    throw new AppError('INSUFFICIENT_CREDITS', 'default', {
      required: outcome.price,
      balance: outcome.credits,
    });
  }
  deps.metrics.runStarted();
  deps.metrics.creditsMoved('workflow_run', -outcome.price);
  const run: RunRow = {
    id: executionId,
    workflowId: input.workflowId,
    userId: user.id,
    status: options.answers ? 'running' : 'pending',
    language,
    inputData: options.answers ?? null,
    outputData: null,
    creditsUsed: outcome.price,
    executionTimeMs: null,
    errorMessage: null,
    progressMessage: null,
    outputType: null,
    outputUrl: null,
    outputFilename: null,
    outputSize: null,
    resultPath: null,
    resultTokenHash: claim?.tokenHash ?? null,
    chatMessageCount: 0,
    dispatchAttempts: claim ? 1 : 0,
    nextDispatchAt: claim?.leaseUntil ?? null,
    dispatchedAt: claim ? now : null,
    expiresAt,
    fileExpiresAt: null,
    createdAt: now,
    completedAt: null,
  };
  return {
    executionId,
    price: outcome.price,
    run,
    ...(claim
      ? {
          delivery: {
            id: executionId,
            workflowId: input.workflowId,
            userId: user.id,
            language,
            inputData: run.inputData,
            attempts: 1,
            expiresAt,
            token: claim.token,
          },
        }
      : {}),
  };
}
