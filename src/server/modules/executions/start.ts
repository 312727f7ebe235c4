import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { TLanguage } from '#shared/contract/common.js';
import type { ConfigValues } from '#shared/contract/config.js';
import type { TRunOrigin, TSentAnswer } from '#shared/contract/executions.js';
import type { DbOrTx } from '#server/db/client.js';
import { preparedPerHandle } from '#server/db/prepared.js';
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
import { accountSuspended } from '../auth/service.js';
import { getSetting, getSettings } from '../settings/service.js';
import { attemptClaim, type ClaimedRun } from './dispatch.js';
import { settleRunIn } from './settle.js';

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
  /** Where the run is started: the public API, MCP, or a schedule (a person's "run now" is the web's). */
  origin?: TRunOrigin;
  /**
   * A chat opened through the public API or MCP (decision 164): every check of a start (the balance, the key's
   * limit, the workflow) but no charge; the run is `pending` with nothing used, and its first message charges
   * it (chargeRun), as the web's chat is. Not with `answers`.
   */
  unpaid?: boolean;
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
  /** Checked as a start is, charged nothing (StartRunOptions.unpaid). */
  unpaid: boolean;
}

interface StartOutcome {
  accountStatus: string;
  /** The balance before the start (what a 402 reports). */
  credits: number;
  /** Null when the workflow cannot be started by this user (startable). */
  price: number | null;
  /** The workflow's current version, which the run records. */
  version: number | null;
  /** The workflow is paused (operations, decision 146): nothing is charged or started. */
  paused: boolean | null;
  /** The balance after the charge (an unpaid start: the balance, which covers the price); null when refused. */
  balance: number | null;
  /** An API start: what is left of the key's month (null: no limit), and whether the key still exists. */
  remaining?: number | null;
  keyFound?: boolean;
}

/**
 * Which workflows a run may be started on: active, not archived, and public unless the starter is an admin.
 * The one place that says so for every start (the web's open, the public API, MCP and schedules through
 * startRun); an admin's test run (openTestRun) is the one start that passes by it.
 */
function startable(isAdmin: SQL): SQL {
  const wf = userWorkflows;
  return sql`(${wf.isActive} and ${wf.archivedAt} is null and (${wf.isPublic} or ${isAdmin}))`;
}

const p = (name: string) => sql.placeholder(name);
const timestamp = (name: string) => sql`${p(name)}::timestamptz`;

/** A CTE's column, for Drizzle's type of the CTE; the answer below names it by the CTE's local name. */
const column = (name: string) => sql`${sql.identifier(name)}`.as(name);

/**
 * The statement, for one variant, prepared under its own name. Tables and columns are named through the schema
 * (the CTEs' own names and aliases are local), so renaming a column there fails the typecheck here instead of
 * this statement at run time. Without an API key it is the web's start; the key adds its lock, its limit and its
 * spending; answers write the run `running` with its first attempt claimed; an Idempotency-Key adds its claim;
 * an unpaid start (a chat opened through the API) makes the debit's checks without its update, and writes
 * neither the ledger, the key's spending nor the run counter's note.
 * Each CTE is Drizzle's `$with(alias, selection).as(sql)` and the whole is `db.with(...).select()`, so the
 * statement is prepared through Drizzle's public `.prepare(name)`. The key's CTE is read twice (the debit and the
 * answer), so PostgreSQL materializes it: its row lock is taken once, before the debit.
 */
function prepareStart(db: DbOrTx, v: Variant, name: string) {
  const wf = userWorkflows;
  const profile = userProfiles;
  const ledger = creditTransactions;
  const runs = workflowExecutions;
  const month = timestamp('month');
  const spent = spentThisMonthSql(month);
  const opt = (on: boolean, part: SQL) => (on ? part : sql``);
  const workflow = db.$with('workflow', { price: column('price'), paused: column('paused') }).as(
    sql`select ${wf.id} as id, ${wf.creditsPerExecution} as price, ${wf.version} as version,
        ${wf.pausedAt} is not null as paused from ${wf}
      where ${wf.id} = ${p('workflowId')}::uuid and ${startable(sql`${p('isAdmin')}::boolean`)}`,
  );
  const account = db.$with('account', { accountStatus: column('account_status') }).as(
    sql`select ${profile.accountStatus} as account_status, ${profile.credits} as credits from ${profile}
      where ${profile.id} = ${p('userId')}::uuid`,
  );
  const key = db.$with('key', { remaining: column('remaining') }).as(
    sql`select ${apiKeys.monthlyCreditLimit} - ${spent} as remaining, true as found from ${apiKeys}
      where ${apiKeys.id} = ${p('keyId')}::uuid
      for update`,
  );
  const covered = sql`${profile.id} = ${p('userId')}::uuid and ${profile.accountStatus} = 'active' and not w.paused
        and ${profile.credits} >= w.price${opt(v.apiKey, sql` and (k.remaining is null or w.price <= k.remaining)`)}`;
  const debit = db.$with('debit', { balance: column('balance') }).as(
    v.unpaid
      ? sql`select ${profile.credits} as balance, w.id as workflow_id, 0 as price, w.version as workflow_version
      from ${profile}, workflow w${opt(v.apiKey, sql`, key k`)} where ${covered}`
      : sql`update ${profile}
      set ${columnName(profile.credits)} = ${profile.credits} - w.price, ${columnName(profile.updatedAt)} = now()
      from workflow w${opt(v.apiKey, sql`, key k`)}
      where ${covered}
      returning ${profile.credits} as balance, w.id as workflow_id, w.price, w.version as workflow_version`,
  );
  const spend = db.$with('spend', {}).as(
    sql`update ${apiKeys}
      set ${columnName(apiKeys.spentCredits)} = ${spent} + d.price, ${columnName(apiKeys.spentMonth)} = ${month}
      from debit d where ${apiKeys.id} = ${p('keyId')}::uuid`,
  );
  const usage = db.$with('usage', {}).as(
    sql`insert into ${ledger} ${columnList(
      ledger.userId,
      ledger.amount,
      ledger.transactionType,
      ledger.workflowId,
      ledger.executionId,
      ledger.noteKind,
    )}
      select ${p('userId')}::uuid, -price, 'usage', workflow_id, ${p('executionId')}::uuid, 'workflow_run' from debit`,
  );
  const run = db.$with('run', {}).as(
    sql`insert into ${runs} ${columnList(
      runs.id,
      runs.workflowId,
      runs.userId,
      runs.status,
      runs.language,
      runs.creditsUsed,
      runs.createdAt,
      runs.expiresAt,
      runs.origin,
      runs.workflowVersion,
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
        ${p('language')}, price, ${timestamp('now')}, ${timestamp('expiresAt')}, ${p('origin')}, workflow_version${opt(
          v.answers,
          sql`, ${p('inputData')}::jsonb, ${timestamp('now')}, ${timestamp('leaseUntil')}, 1, ${p('tokenHash')}`,
        )}
      from debit`,
  );
  const claim = db.$with('claim', {}).as(
    sql`insert into ${idempotencyKeys} ${columnList(
      idempotencyKeys.userId,
      idempotencyKeys.key,
      idempotencyKeys.requestHash,
      idempotencyKeys.statusCode,
      idempotencyKeys.response,
    )}
      select ${p('userId')}::uuid, ${p('idempotencyKey')}, ${p('requestHash')}, 201, ${p('response')}::jsonb
      from debit`,
  );
  const tally = db
    .$with('tally', {})
    .as(
      sql`insert into ${workflowRunTally} ${columnList(workflowRunTally.workflowId)} select workflow_id from debit`,
    );
  const ctes = [
    workflow,
    account,
    ...(v.apiKey ? [key] : []),
    debit,
    ...(v.apiKey && !v.unpaid ? [spend] : []),
    ...(v.unpaid ? [] : [usage]),
    run,
    ...(v.idempotency ? [claim] : []),
    ...(v.unpaid ? [] : [tally]),
  ];
  const always = sql`true`;
  // The answer reads the CTEs by their local names, as the CTEs read one another.
  const answer = {
    accountStatus: sql<string>`account.account_status`,
    credits: sql<number>`account.credits`,
    price: sql<number | null>`workflow.price`,
    version: sql<number | null>`workflow.version`,
    paused: sql<boolean | null>`workflow.paused`,
    balance: sql<number | null>`debit.balance`,
  };
  const base = db.with(...ctes);
  return v.apiKey
    ? base
        .select({
          ...answer,
          remaining: sql<number | null>`key.remaining`,
          keyFound: sql<boolean>`coalesce(key.found, false)`,
        })
        .from(account)
        .leftJoin(workflow, always)
        .leftJoin(debit, always)
        .leftJoin(key, always)
        .prepare(name)
    : base.select(answer).from(account).leftJoin(workflow, always).leftJoin(debit, always).prepare(name);
}

const statements = new Map<
  string,
  (db: DbOrTx) => { execute(values: Record<string, unknown>): Promise<StartOutcome[]> }
>();

function statementFor(v: Variant) {
  const name = `start_run${v.apiKey ? '_key' : ''}${v.idempotency ? '_idempotent' : ''}${v.answers ? '_answered' : ''}${v.unpaid ? '_unpaid' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    statement = preparedPerHandle((db) => prepareStart(db, v, name));
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
 * their own; that is most of what a start costs (bench/api-runs.ts). The public API and the MCP server start
 * runs here, charged at once because they start and submit in one step, except a chat, opened `unpaid` and
 * charged at its first message like the web's (decision 164); the web app opens its runs uncharged (openRun)
 * and charges them when the person commits (chargeRun).
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
  const origin = options.origin ?? 'web';
  const claim = options.answers ? attemptClaim(now) : undefined;
  const variant: Variant = {
    apiKey: options.apiKeyId !== undefined,
    idempotency: options.idempotency !== undefined,
    answers: options.answers !== undefined,
    unpaid: options.unpaid === true && options.answers === undefined,
  };
  const values: Record<string, unknown> = {
    workflowId: input.workflowId,
    isAdmin: user.isAdmin,
    userId: user.id,
    executionId,
    language,
    now: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    origin,
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
  const [outcome] = await statementFor(variant)(db).execute(values);
  if (!outcome || outcome.accountStatus !== 'active') throw await accountSuspended(db);
  // Revoked since the request was authorised: nothing was charged through it.
  if (variant.apiKey && !outcome.keyFound) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
  if (outcome.price === null) throw notFound('workflow');
  if (outcome.paused) throw new AppError('WORKFLOW_PAUSED', 'default');
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
  const charged = variant.unpaid ? 0 : outcome.price;
  if (charged > 0) deps.metrics.creditsMoved('workflow_run', -charged);
  const run: RunRow = {
    id: executionId,
    workflowId: input.workflowId,
    userId: user.id,
    status: options.answers ? 'running' : 'pending',
    language,
    inputData: options.answers ?? null,
    outputData: null,
    creditsUsed: charged,
    executionTimeMs: null,
    errorCode: null,
    errorMessage: null,
    progressMessage: null,
    outputType: null,
    outputUrl: null,
    outputFilename: null,
    outputSize: null,
    resultPath: null,
    resultTokenHash: claim?.tokenHash ?? null,
    notifyUrl: null,
    chatMessageCount: 0,
    dispatchAttempts: claim ? 1 : 0,
    nextDispatchAt: claim?.leaseUntil ?? null,
    dispatchedAt: claim ? now : null,
    expiresAt,
    fileExpiresAt: null,
    origin,
    workflowVersion: outcome.version,
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

export interface OpenedRun {
  executionId: string;
  /** The person's unsubmitted run of this workflow, answered again instead of a new one. */
  reused: boolean;
}

/**
 * Opens a run for the web app's execute page, charging nothing: the run is charged when the person commits
 * to it (chargeRun: a survey's answers, a chat's first message). The balance is checked all the same (402
 * INSUFFICIENT_CREDITS, as before), so nobody fills a form they cannot pay for. Opening the page again while
 * the person has an unsubmitted run of the workflow answers that run (reload, Back and Forward create
 * nothing), and a person holds at most `open_runs_per_user` unsubmitted runs: opening one more closes the
 * oldest, quietly (settleRun's `unsubmitted` ending: no ledger row unless a chat's assistant had answered).
 * The person's profile row is locked first, so two opens at once (a reload racing the first load) see each
 * other's run instead of making two.
 */
export async function openRun(deps: AppDeps, user: TSessionUser, input: StartRunInput): Promise<OpenedRun> {
  const db: DbOrTx = deps.db;
  const settings = await getSettings(db, [
    'require_email_verification',
    'webhook_timeout_minutes',
    'open_runs_per_user',
  ]);
  if (!user.emailVerified && settings.require_email_verification) {
    throw new AppError('EMAIL_NOT_VERIFIED', 'default');
  }
  const now = deps.now();
  const runs = workflowExecutions;
  let closed = 0;
  const opened = await deps.db.transaction(async (tx): Promise<OpenedRun> => {
    const [account] = await tx
      .select({ status: userProfiles.accountStatus, credits: userProfiles.credits })
      .from(userProfiles)
      .where(eq(userProfiles.id, user.id))
      .for('update');
    if (!account || account.status !== 'active') throw new AppError('ACCOUNT_SUSPENDED', 'default');
    const [workflow] = await tx
      .select({
        price: userWorkflows.creditsPerExecution,
        version: userWorkflows.version,
        pausedAt: userWorkflows.pausedAt,
      })
      .from(userWorkflows)
      .where(and(eq(userWorkflows.id, input.workflowId), startable(sql`${user.isAdmin}::boolean`)));
    if (!workflow) throw notFound('workflow');
    if (workflow.pausedAt) throw new AppError('WORKFLOW_PAUSED', 'default');
    if (account.credits < workflow.price) {
      throw new AppError('INSUFFICIENT_CREDITS', 'default', {
        required: workflow.price,
        balance: account.credits,
      });
    }
    // The person's runs still waiting for their answers (pending never reached the workflow), newest first.
    const waiting = await tx
      .select({ id: runs.id, workflowId: runs.workflowId })
      .from(runs)
      // The web's own runs only: an admin's test run is never continued (it would run uncharged), and an agent's
      // conversation opened through the API or MCP (pending until its chat ends) is neither taken over by the
      // page nor closed by it.
      .where(
        and(
          eq(runs.userId, user.id),
          eq(runs.status, 'pending'),
          gt(runs.expiresAt, now),
          eq(runs.origin, 'web'),
        ),
      )
      .orderBy(desc(runs.createdAt));
    const again = waiting.find((run) => run.workflowId === input.workflowId);
    if (again) return { executionId: again.id, reused: true };
    for (const old of waiting.slice(Math.max(0, settings.open_runs_per_user - 1))) {
      const ended = await settleRunIn(tx, deps, old.id, {
        status: 'expired',
        // Not stored: a run that never reached the workflow ends as "left before sending" (settle.ts).
        errorCode: 'timeout',
        errorMessage: null,
        unsubmitted: true,
      });
      if (ended) closed += 1;
    }
    const executionId = randomUUID();
    await tx.insert(runs).values({
      id: executionId,
      workflowId: input.workflowId,
      userId: user.id,
      status: 'pending',
      language: input.language ?? 'en',
      creditsUsed: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + settings.webhook_timeout_minutes * 60_000),
      origin: 'web',
      workflowVersion: workflow.version,
    });
    return { executionId, reused: false };
  });
  for (let i = 0; i < closed; i += 1) deps.metrics.runFinished('expired');
  if (!opened.reused) deps.metrics.runStarted();
  return opened;
}

/**
 * An admin's test run (decision 147): any workflow, private, inactive, archived or paused included, opened
 * like the web's run (answers or a chat's first message send it to the real webhook) but charged to no one
 * (chargeRun passes over origin `test`) and counted nowhere (no run counter note, no dashboard, no catalogue
 * count, no notice). Each call opens a new run: test runs are never reused by openRun, nor it by them.
 */
export async function openTestRun(
  deps: AppDeps,
  admin: TSessionUser,
  workflowId: string,
  language: TLanguage,
): Promise<{ executionId: string }> {
  const timeoutMinutes = await getSetting(deps.db, 'webhook_timeout_minutes');
  const now = deps.now();
  const [workflow] = await deps.db
    .select({ version: userWorkflows.version })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  if (!workflow) throw notFound('workflow');
  const executionId = randomUUID();
  await deps.db.insert(workflowExecutions).values({
    id: executionId,
    workflowId,
    userId: admin.id,
    status: 'pending',
    language,
    creditsUsed: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
    origin: 'test',
    workflowVersion: workflow.version,
  });
  return { executionId };
}

/**
 * Before a chat is opened unpaid through the API or MCP (decision 164): an open costs nothing until its first
 * message, so the account's conversations opened there and not yet spoken in (pending, uncharged, unexpired)
 * are bounded by `open_runs_per_user`, as the web's unsent runs are. Past it the open is refused (409) rather
 * than the oldest closed, as the web does: an agent may be about to speak in it, and closing a conversation as
 * its first message is charged would lose that charge. Concurrent opens may pass the bound by a few; it bounds
 * rows, not money.
 */
export async function refuseTooManyUnspokenChats(deps: Pick<AppDeps, 'db' | 'now'>, userId: string) {
  const runs = workflowExecutions;
  const max = await getSetting(deps.db, 'open_runs_per_user');
  const [row] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(
      and(
        eq(runs.userId, userId),
        eq(runs.status, 'pending'),
        inArray(runs.origin, ['api', 'mcp']),
        eq(runs.creditsUsed, 0),
        gt(runs.expiresAt, deps.now()),
      ),
    );
  if ((row?.n ?? 0) >= max) {
    throw new AppError('CONFLICT', { key: 'tooManyUnspokenChats', params: { max } }, { limit: max });
  }
}

/**
 * Removes an admin's test run that was never sent (its answers were refused in the same request that opened
 * it: the admin API's one-step test run), so a refused request leaves nothing behind. Only a pending test run:
 * it has no ledger rows, no notes and no delivery log.
 */
export async function discardTestRun(deps: Pick<AppDeps, 'db'>, executionId: string): Promise<void> {
  await deps.db
    .delete(workflowExecutions)
    .where(
      and(
        eq(workflowExecutions.id, executionId),
        eq(workflowExecutions.origin, 'test'),
        eq(workflowExecutions.status, 'pending'),
      ),
    );
}
