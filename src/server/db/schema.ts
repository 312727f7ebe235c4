import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TBilingual } from '#shared/contract/common.js';
import { LEDGER_NOTE_KINDS, TRANSACTION_TYPES, type TLedgerNoteParams } from '#shared/contract/credits.js';
import { EMAIL_STATUSES } from '#shared/contract/emails.js';
import { SCHEDULE_PAUSE_REASONS, SCHEDULE_SKIP_REASONS } from '#shared/contract/schedules.js';
import { API_KEY_SCOPES, CREDENTIAL_KINDS } from '#shared/contract/api-keys.js';
import { RUN_FAILURE_CODES, RUN_ORIGINS } from '#shared/contract/executions.js';
import { HEALTH_OUTCOMES, INCIDENT_KINDS, WORKFLOW_PAUSE_REASONS } from '#shared/contract/operations.js';
import {
  NOTIFICATION_KINDS,
  type TNotificationParams,
  type TNotificationPreferencesStored,
} from '#shared/contract/notifications.js';
import type { AnswerProblem } from '#shared/contract/survey-schema.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import type { TWorkflowVersionContent } from '#shared/contract/workflow-versions.js';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: id(),
  /** Always stored lower-cased, so uniqueness is case-insensitive. */
  email: text('email').notNull().unique(),
  hashedPassword: text('hashed_password').notNull(),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Absolute end of life, whatever the sliding expiry says. */
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    /** The browser's User-Agent at sign-in, cut short; parsed into "Chrome on Android" when listed. */
    userAgent: text('user_agent'),
    /** Where the session was last used: a country code from a trusted proxy, or else the masked address. */
    country: text('country'),
    network: text('network'),
    /** Last use, written at most once per SESSION_TOUCH_AFTER_MS (with the sliding expiry). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    // The clean-up job deletes by either limit; without these it scans every session.
    index('sessions_expires_idx').on(t.expiresAt),
    index('sessions_absolute_expires_idx').on(t.absoluteExpiresAt),
  ],
);

export const userProfiles = pgTable(
  'user_profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull().unique(),
    fullName: text('full_name'),
    /** Running sum of the user's ledger; changed only together with a ledger row. */
    credits: integer('credits').notNull().default(0),
    isAdmin: boolean('is_admin').notNull().default(false),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    accountStatus: text('account_status', { enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    /** The language of the person's mails and of the server's texts to them. */
    language: text('language', { enum: ['es', 'en'] })
      .notNull()
      .default('en'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Which run endings the person is told of, per channel and origin (missing entries: all). */
    notificationPreferences: jsonb('notification_preferences')
      .$type<TNotificationPreferencesStored>()
      .notNull()
      .default({}),
    /** Below this balance the person is told once (migration 0025's trigger); null: never. */
    lowBalanceThreshold: integer('low_balance_threshold'),
    /** The balance is below the threshold and the person was told; cleared when it rises back. */
    lowBalanceWarned: boolean('low_balance_warned').notNull().default(false),
    /** An admin's choice to get the workflow alert mails (migration 0027); ignored for other people. */
    workflowAlerts: boolean('workflow_alerts').notNull().default(true),
    /** The person's IANA time zone (migration 0024): detected from the browser, changeable; null until known. */
    timezone: text('timezone'),
    /** Set when the person deleted their account: personal data is gone, the ledger rows stay. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * The e-mail and the name folded (lower case, no accents) for the admin search, computed by the database
     * on every write so that a search's checks compare plain text (flujo_fold, migration 0010).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`flujo_fold(email || chr(10) || coalesce(full_name, ''))`),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('user_profiles_credits_non_negative', sql`${t.credits} >= 0`),
    check('user_profiles_status_valid', sql`${t.accountStatus} in ('active', 'suspended')`),
    check('user_profiles_language_valid', sql`${t.language} in ('es', 'en')`),
    check('user_profiles_timezone_length', sql`char_length(${t.timezone}) between 1 and 64`),
    check(
      'user_profiles_low_balance_threshold_valid',
      sql`${t.lowBalanceThreshold} is null or ${t.lowBalanceThreshold} between 1 and 1000000`,
    ),
    index('user_profiles_created_idx').on(t.createdAt.desc()),
    // The admin user list: live accounts by default, deleted ones on request (migration 0022).
    index('user_profiles_live_created_idx')
      .on(t.createdAt.desc())
      .where(sql`${t.deletedAt} is null`),
    index('user_profiles_deleted_created_idx')
      .on(t.createdAt.desc())
      .where(sql`${t.deletedAt} is not null`),
    index('user_profiles_email_prefix_idx').on(t.email.op('text_pattern_ops')),
    // Admin user search: any part of the e-mail or name, accents and case aside (migration 0010).
    index('user_profiles_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** A workflow's names, folded for the admin search (both languages, one per line). */
export const workflowNameFolded = sql.raw(`flujo_fold((name ->> 'es') || chr(10) || (name ->> 'en'))`);
/** The names and descriptions, folded for the admin search of the workflow list. */
export const workflowTextFolded = sql.raw(
  `flujo_fold((name ->> 'es') || chr(10) || (name ->> 'en') || chr(10) || coalesce(description ->> 'es', '') || chr(10) || coalesce(description ->> 'en', ''))`,
);

export const userWorkflows = pgTable(
  'user_workflows',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: jsonb('name').$type<TBilingual>().notNull(),
    description: jsonb('description').$type<TBilingual | null>(),
    category: jsonb('category').$type<TBilingual>().notNull(),
    webhookUrl: text('webhook_url').notNull(),
    /** whsec_ + base64 key, used to sign outbound calls (Standard Webhooks). */
    secretToken: text('secret_token').notNull(),
    /** The secret being rotated out: both signatures are sent until it expires. */
    previousSecretToken: text('previous_secret_token'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    isPublic: boolean('is_public').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    executionCount: integer('execution_count').notNull().default(0),
    interactionType: text('interaction_type', { enum: ['chatbot', 'survey'] })
      .notNull()
      .default('chatbot'),
    creditsPerExecution: integer('credits_per_execution').notNull().default(1),
    welcomeMessage: jsonb('welcome_message').$type<TBilingual | null>(),
    aiPrompt: text('ai_prompt'),
    surveyQuestions: jsonb('survey_questions').$type<TSurveyQuestion[]>().notNull().default([]),
    /** The number of its current version (workflow_versions, migration 0028). */
    version: integer('version').notNull().default(1),
    /** Set while archived: out of the catalogue and not startable; runs, results and reviews stay. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Set while the workflow is paused (migration 0027): listed as unavailable, no run starts. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedReason: text('paused_reason', { enum: WORKFLOW_PAUSE_REASONS }),
    /** Counted runs that failed in a row since the last completed one (operations/counting.ts). */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('user_workflows_credits_min', sql`${t.creditsPerExecution} >= 1`),
    check(
      'user_workflows_paused_reason_valid',
      sql`${t.pausedReason} is null or ${t.pausedReason} in ('auto', 'manual')`,
    ),
    index('user_workflows_catalogue_idx').on(t.isActive, t.isPublic, t.createdAt.desc()),
    index('user_workflows_created_idx').on(t.createdAt.desc()),
    // Admin searches: the names (runs by workflow) and the names with the descriptions (the workflow list),
    // folded; the same expressions as admin/search.ts.
    index('user_workflows_name_trgm_idx').using('gin', sql`${workflowNameFolded} gin_trgm_ops`),
    index('user_workflows_text_trgm_idx').using('gin', sql`${workflowTextFolded} gin_trgm_ops`),
  ],
);

export const EXECUTION_STATUSES = ['pending', 'running', 'completed', 'failed', 'expired'] as const;

export const workflowExecutions = pgTable(
  'workflow_executions',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EXECUTION_STATUSES }).notNull().default('pending'),
    language: text('language', { enum: ['es', 'en'] })
      .notNull()
      .default('en'),
    inputData: jsonb('input_data'),
    outputData: jsonb('output_data'),
    creditsUsed: integer('credits_used').notNull().default(0),
    executionTimeMs: integer('execution_time_ms'),
    /** Why a failed or expired run ended so, worded by each reader (src/shared/i18n/run-failures.ts). */
    errorCode: text('error_code', { enum: RUN_FAILURE_CODES }),
    /** The technical detail of a failure (an HTTP status, the workflow's own message), for admins. */
    errorMessage: text('error_message'),
    /** The workflow's latest progress message (`status: "running"` callbacks) while the run works. */
    progressMessage: text('progress_message'),
    outputType: text('output_type', { enum: ['text', 'image', 'video', 'file'] }),
    outputUrl: text('output_url'),
    outputFilename: text('output_filename'),
    outputSize: integer('output_size'),
    resultPath: text('result_path'),
    /** SHA-256 of the per-run result token the workflow service must present. */
    resultTokenHash: text('result_token_hash'),
    /** The caller's own address for this run's ending (`POST /api/v1/runs { webhookUrl }`, migration 0026). */
    notifyUrl: text('notify_url'),
    chatMessageCount: integer('chat_message_count').notNull().default(0),
    dispatchAttempts: integer('dispatch_attempts').notNull().default(0),
    nextDispatchAt: timestamp('next_dispatch_at', { withTimezone: true }),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When the stored result file (result_path) is deleted; kept afterwards, so the run says it expired. */
    fileExpiresAt: timestamp('file_expires_at', { withTimezone: true }),
    /** Where the run was started (migration 0023): each start path sets its own. */
    origin: text('origin', { enum: RUN_ORIGINS }).notNull().default('web'),
    /** The workflow's version the run ran (migration 0028); null for runs from before versions. */
    workflowVersion: integer('workflow_version'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'executions_error_code_valid',
      sql`${t.errorCode} in (${sql.raw(RUN_FAILURE_CODES.map((c) => `'${c}'`).join(', '))})`,
    ),
    check(
      'executions_origin_valid',
      sql`${t.origin} in (${sql.raw(RUN_ORIGINS.map((c) => `'${c}'`).join(', '))})`,
    ),
    index('executions_user_created_idx').on(t.userId, t.createdAt.desc()),
    // Admin run list searched by workflow: newest first without sorting a popular workflow's every run. It
    // also serves the workflow foreign key (a plain workflow_id index would only cost every insert a write).
    index('executions_workflow_created_idx').on(t.workflowId, t.createdAt.desc()),
    index('executions_status_created_idx').on(t.status, t.createdAt.desc()),
    // The id too: a CSV export pages oldest first by (created_at, id), reading it backward (migration 0029).
    index('executions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('executions_open_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending', 'running')`),
    index('executions_file_expiry_idx')
      .on(t.fileExpiresAt)
      .where(sql`${t.resultPath} is not null`),
    index('executions_dispatch_due_idx')
      .on(t.nextDispatchAt)
      .where(sql`${t.nextDispatchAt} is not null`),
    // A workflow's runs ended in a window: the last hour's failure rate and the health's 24 hours.
    index('executions_workflow_ended_idx')
      .on(t.workflowId, t.completedAt)
      .where(sql`${t.completedAt} is not null`),
  ],
);

/**
 * Every call of a run's webhook and every result callback for it (migration 0027, decision 144), at most
 * `delivery_log_entries_per_run` per run, removed with the run. Excerpts are redacted before they are stored.
 */
export const runDeliveryLog = pgTable(
  'run_delivery_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    executionId: uuid('execution_id')
      .notNull()
      .references(() => workflowExecutions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['call', 'callback'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    attempt: integer('attempt'),
    httpStatus: integer('http_status'),
    outcome: text('outcome').notNull(),
    error: text('error'),
    latencyMs: integer('latency_ms'),
    responseBytes: integer('response_bytes'),
    excerpt: text('excerpt'),
  },
  (t) => [
    check('run_delivery_log_kind_valid', sql`${t.kind} in ('call', 'callback')`),
    index('run_delivery_log_run_idx').on(t.executionId, t.id),
  ],
);

/**
 * One row per counted run that ended and is not yet in workflow_health_days (operations/health.ts folds
 * them). Like workflow_run_tally: no key, no index, no foreign key, so ending a run never queues on a row.
 */
export const workflowHealthNotes = pgTable('workflow_health_notes', {
  workflowId: uuid('workflow_id').notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
  outcome: text('outcome', { enum: HEALTH_OUTCOMES }).notNull(),
  durationMs: integer('duration_ms'),
});

/** A workflow's counted runs per day (UTC), with a histogram of the completed runs' times (decision 145). */
export const workflowHealthDays = pgTable(
  'workflow_health_days',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    completed: integer('completed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    expired: integer('expired').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    durations: integer('durations').array().notNull(),
    /** The fold that last changed the row (a sequence): the latest one versions the catalogue's health. */
    folded: bigint('folded', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workflowId, t.day] }),
    index('workflow_health_days_folded_idx').on(t.folded),
    index('workflow_health_days_day_idx').on(t.day),
  ],
);

/** A workflow's failing spell (decision 146): at most one open per workflow; the admins are mailed once. */
export const workflowIncidents = pgTable(
  'workflow_incidents',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: INCIDENT_KINDS }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    check('workflow_incidents_kind_valid', sql`${t.kind} in ('consecutive_failures', 'failure_rate')`),
    uniqueIndex('workflow_incidents_one_open')
      .on(t.workflowId)
      .where(sql`${t.resolvedAt} is null`),
    index('workflow_incidents_workflow_idx').on(t.workflowId, t.openedAt.desc()),
  ],
);

/**
 * Stored files whose row is gone (a deleted workflow's runs) or whose time is up, written in the same
 * transaction as that change and removed from the store after it commits; the retention job retries what a
 * failed or interrupted removal left, so no file outlives its run.
 */
export const storageDeletions = pgTable('storage_deletions', {
  key: text('key').primaryKey(),
  createdAt: createdAt(),
});

/**
 * One row per started run whose workflow's execution_count has not counted it yet (see runs/tally.ts). No
 * key, no index and no foreign key on purpose: inserting here is the cheapest write a run start can make,
 * and it never touches the workflow row that every start of a popular workflow would otherwise queue on.
 */
/**
 * A workflow's numbered versions (migration 0028): what a run uses, as each save left it, with its author.
 * Never the secret. Removed with the workflow.
 */
export const workflowVersions = pgTable(
  'workflow_versions',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: jsonb('content').$type<TWorkflowVersionContent>().notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The version a restore copied; null for an ordinary save. */
    restoredFrom: integer('restored_from'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.version] })],
);

export const workflowRunTally = pgTable('workflow_run_tally', {
  workflowId: uuid('workflow_id').notNull(),
});

/** The ledger: rows are only ever inserted. */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id').references(() => userWorkflows.id, { onDelete: 'set null' }),
    /** The run a usage or refund row belongs to; no foreign key, the row outlives the run. */
    executionId: uuid('execution_id'),
    amount: integer('amount').notNull(),
    transactionType: text('transaction_type', { enum: TRANSACTION_TYPES }).notNull(),
    usdAmount: numeric('usd_amount', { precision: 10, scale: 2 }),
    planName: text('plan_name'),
    /** The admin's reason (`admin_adjustment`) or a text from before note kinds (`other`); null otherwise. */
    notes: text('notes'),
    /** What the row is for, worded by the reader's screen in their language. */
    noteKind: text('note_kind', { enum: LEDGER_NOTE_KINDS }).notNull().default('other'),
    noteParams: jsonb('note_params').$type<TLedgerNoteParams>().notNull().default({}),
    /** Unique business reference (payment event, renewal period) that makes a grant happen once. */
    reference: text('reference').unique(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('ledger_type_created_idx').on(t.transactionType, t.createdAt.desc()),
    index('ledger_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('ledger_workflow_idx').on(t.workflowId),
    uniqueIndex('ledger_one_usage_per_run')
      .on(t.executionId)
      .where(sql`${t.transactionType} = 'usage'`),
    uniqueIndex('ledger_one_refund_per_run')
      .on(t.executionId)
      .where(sql`${t.transactionType} = 'refund'`),
  ],
);

/**
 * Insights' tallies of whole UTC days (migration 0035, decision 166): counted runs (test runs left out) per
 * workflow and customer, so distinct customers can still be counted over a range. Written once a day is over
 * (admin/insight-tallies.ts); removed with the workflow or the customer, as the runs are.
 */
export const insightRunDays = pgTable(
  'insight_run_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    runs: integer('runs').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.workflowId, t.userId] }),
    // Covering: a range of days is read from the index alone, its figures included, in (day, customer) order so
    // the distinct customers of each day need no hash (migration 0036).
    index('insight_run_days_day_user_idx').on(t.day, t.userId, t.workflowId, t.runs),
    index('insight_run_days_workflow_idx').on(t.workflowId, t.day),
  ],
);

/**
 * The runs' tally summed over workflows and customers (migration 0037, decision 180): a day's runs and its
 * distinct customers, so the chart of a month reads one row a day instead of grouping every (day, customer).
 * Written with insight_run_days, from the same rows; a workflow's or customer's deletion leaves it as it was,
 * as the ledger's day totals are.
 */
export const insightRunDayTotals = pgTable('insight_run_day_totals', {
  day: date('day', { mode: 'string' }).primaryKey(),
  runs: integer('runs').notNull(),
  customers: integer('customers').notNull(),
});

/** A ledger tally's figures for one (day, ...) group: its type and plan, how many rows, their credits and dollars. */
const ledgerTallyFigures = () => ({
  transactionType: text('transaction_type', { enum: TRANSACTION_TYPES }).notNull(),
  planName: text('plan_name'),
  rows: integer('rows').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  usdAmount: numeric('usd_amount', { precision: 14, scale: 2 }),
});

/** The ledger's usage, refund and purchase rows of whole UTC days, summed per workflow, type and plan. */
export const insightLedgerDays = pgTable(
  'insight_ledger_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** Set to null with the workflow's deletion, as the ledger rows' own workflow is. */
    workflowId: uuid('workflow_id').references(() => userWorkflows.id, { onDelete: 'set null' }),
    ...ledgerTallyFigures(),
  },
  (t) => [
    // Covering, as insight_run_days_day_idx.
    index('insight_ledger_days_day_idx').on(
      t.day,
      t.workflowId,
      t.transactionType,
      t.planName,
      t.rows,
      t.amount,
      t.usdAmount,
    ),
    index('insight_ledger_days_workflow_idx').on(t.workflowId, t.day),
  ],
);

/**
 * The ledger's tally summed over workflows, per day, type and plan (migration 0036): what the chart and the
 * purchases by plan read, a few rows a day. Written with insightLedgerDays, from it.
 */
export const insightLedgerDayTotals = pgTable(
  'insight_ledger_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    ...ledgerTallyFigures(),
  },
  (t) => [
    // Covering, as insight_ledger_days_day_idx.
    index('insight_ledger_day_totals_day_idx').on(
      t.day,
      t.transactionType,
      t.planName,
      t.rows,
      t.amount,
      t.usdAmount,
    ),
  ],
);

/** One row: the first UTC day not yet in the insight tallies (insights read the raw rows from it on). */
export const insightTallyMark = pgTable(
  'insight_tally_mark',
  {
    id: integer('id').primaryKey().default(1),
    through: date('through', { mode: 'string' }).notNull(),
  },
  (t) => [check('insight_tally_mark_one_row', sql`${t.id} = 1`)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planName: text('plan_name').notNull(),
    creditsPerMonth: integer('credits_per_month').notNull(),
    priceUsd: numeric('price_usd', { precision: 10, scale: 2 }).notNull(),
    nextRenewalDate: timestamp('next_renewal_date', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    provider: text('provider').notNull().default('demo'),
    providerSubscriptionId: text('provider_subscription_id').unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_due_idx')
      .on(t.nextRenewalDate)
      .where(sql`${t.status} = 'active'`),
  ],
);

export const adminAuditLogs = pgTable(
  'admin_audit_logs',
  {
    id: id(),
    adminUserId: uuid('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
    actionType: text('action_type').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_created_idx').on(t.createdAt.desc()),
    index('audit_action_created_idx').on(t.actionType, t.createdAt.desc()),
    index('audit_admin_idx').on(t.adminUserId),
    index('audit_action_trgm_idx').using('gin', sql`flujo_fold(${t.actionType}) gin_trgm_ops`),
  ],
);

export const adminConfig = pgTable('admin_config', {
  id: id(),
  key: text('key').notNull().unique(),
  value: jsonb('value').notNull(),
  description: jsonb('description').$type<TBilingual>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
  createdAt: createdAt(),
});

/** Replays of a request with the same Idempotency-Key get the first answer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Failed sign-in counters, per e-mail and per IP, shared by every server instance. */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/** Payment provider events already applied (Stripe event ids). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: createdAt(),
});

export const STRIPE_PAYMENT_STATUSES = ['pending', 'paid', 'failed'] as const;

/**
 * A Stripe purchase from the first event about it: `pending` while a delayed payment is on its way, `paid` once
 * its credits are granted, `failed` when the payment failed. Found again by the grant's ledger reference, its
 * payment intent or its invoice when Stripe reports more (the first invoice's payment intent, a refund, a
 * dispute): the credits to take back, and how many already were (or could not be, the balance being too low).
 */
export const stripePayments = pgTable(
  'stripe_payments',
  {
    id: id(),
    /** The grant's ledger reference; null on rows written before purchases had states. */
    reference: text('reference').unique(),
    status: text('status', { enum: STRIPE_PAYMENT_STATUSES }).notNull().default('paid'),
    paymentIntentId: text('payment_intent_id').unique(),
    invoiceId: text('invoice_id').unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planName: text('plan_name').notNull(),
    credits: integer('credits').notNull(),
    creditsReversed: integer('credits_reversed').notNull().default(0),
    creditsUnrecovered: integer('credits_unrecovered').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [check('stripe_payments_status_valid', sql`${t.status} in ('pending', 'paid', 'failed')`)],
);

export const ACCOUNT_TOKEN_PURPOSES = ['password_reset', 'email_verification', 'email_change'] as const;

/**
 * Single-use links sent by mail. Only the SHA-256 of the token is stored; a newer token of the same purpose
 * replaces the older ones of that account.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The address being verified: the account's own, or the new one of an e-mail change. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'account_tokens_purpose_valid',
      sql`${t.purpose} in ('password_reset', 'email_verification', 'email_change')`,
    ),
    index('account_tokens_user_purpose_idx').on(t.userId, t.purpose),
    index('account_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The transactional outbox: a mail is inserted in the same transaction as the change that causes it and
 * sent later by the mail job. `held`: no SMTP server was configured; the mail is read in the admin panel.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    language: text('language', { enum: ['es', 'en'] }).notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When a pending mail is next tried, or until when a sending one is claimed by an instance. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('email_outbox_status_valid', sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'held')`),
    index('email_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('email_outbox_created_idx').on(t.createdAt.desc()),
    // Admin search by the start of the recipient's address.
    index('email_outbox_to_prefix_idx').on(t.toAddress.op('text_pattern_ops')),
    index('email_outbox_user_idx').on(t.userId),
  ],
);

/**
 * Personal API keys for `/api/v1` and `/mcp`. Only the SHA-256 of the key is stored and keys are found by that
 * hash, so no comparison ever runs over the secret itself. `spent_credits` counts what the key charged in
 * `spent_month` (the first day of a UTC month); a run in a later month starts the count again. The row is
 * locked by the start's debit so that concurrent runs cannot pass `monthly_credit_limit` together.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the key, shown in lists so that a person can tell keys apart. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    monthlyCreditLimit: integer('monthly_credit_limit'),
    spentMonth: timestamp('spent_month', { withTimezone: true }),
    spentCredits: integer('spent_credits').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** 'admin' also opens the management API under /api/v1/admin/ while its owner is an admin (decision 152). */
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull().default('user'),
    /**
     * 'oauth': the credential of a grant a person approved to an OAuth client (decision 162); its tokens are in
     * oauth_store and go with it. Such a row's key_hash is of a random value nobody was ever given.
     */
    kind: text('kind', { enum: CREDENTIAL_KINDS }).notNull().default('key'),
    oauthGrantId: text('oauth_grant_id').unique(),
    oauthClientId: text('oauth_client_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('api_keys_kind_valid', sql`${t.kind} in ('key', 'oauth')`),
    check(
      'api_keys_oauth_grant',
      sql`(${t.kind} = 'oauth') = (${t.oauthGrantId} is not null and ${t.oauthClientId} is not null)`,
    ),
    check('api_keys_scope_valid', sql`${t.scope} in ('user', 'admin')`),
    check('api_keys_limit_positive', sql`${t.monthlyCreditLimit} is null or ${t.monthlyCreditLimit} > 0`),
    check('api_keys_spent_non_negative', sql`${t.spentCredits} >= 0`),
    index('api_keys_user_idx').on(t.userId),
  ],
);

/**
 * What the OAuth authorization server (oidc-provider, decision 161) keeps, one row per stored object: `model`
 * is its kind (Client, Interaction, Session, Grant, AuthorizationCode, AccessToken, RefreshToken), `id_hash`
 * the SHA-256 of its id, which for a code or token is the secret itself. Rows of a grant go with its credential
 * (api_keys.oauth_grant_id).
 */
export const oauthStore = pgTable(
  'oauth_store',
  {
    model: text('model').notNull(),
    idHash: text('id_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id').references(() => apiKeys.oauthGrantId, { onDelete: 'cascade' }),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.idHash] }),
    index('oauth_store_grant_idx').on(t.grantId),
    index('oauth_store_uid_idx').on(t.model, t.uid),
    index('oauth_store_expires_idx').on(t.expiresAt),
  ],
);

/**
 * A file a person uploaded as the answer to a survey's file question: at most one per question and run (a
 * replacement is a delete, then a new upload). The bytes live in the result file storage under storage_key;
 * whoever deletes runs removes these keys from the storage too.
 */
export const runInputFiles = pgTable(
  'run_input_files',
  {
    id: id(),
    executionId: uuid('execution_id')
      .notNull()
      .references(() => workflowExecutions.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('run_input_files_question_idx').on(t.executionId, t.questionId),
    check('run_input_files_size_positive', sql`${t.size} > 0`),
  ],
);

/**
 * One review per person and workflow (migration 0012). An admin hides a review by setting `hidden_at`: it then
 * counts in no average and is shown to no one but its author and the admins.
 */
export const workflowReviews = pgTable(
  'workflow_reviews',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: uuid('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('workflow_reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('workflow_reviews_comment_length', sql`char_length(${t.comment}) <= 2000`),
    uniqueIndex('workflow_reviews_one_per_person').on(t.workflowId, t.userId),
    index('workflow_reviews_workflow_created_idx').on(t.workflowId, t.createdAt.desc()),
    index('workflow_reviews_user_idx').on(t.userId),
    index('workflow_reviews_hidden_by_idx').on(t.hiddenBy),
  ],
);

/**
 * An admin's hiding of a review, kept per workflow and author: a review the author deletes and writes again
 * starts hidden while this row stays. Written with the review's own hidden_at (reviews.ts); showing the
 * review again removes it.
 */
export const reviewHolds = pgTable(
  'review_holds',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }).notNull(),
    hiddenBy: uuid('hidden_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.workflowId, t.userId] }),
    index('review_holds_user_idx').on(t.userId),
    index('review_holds_hidden_by_idx').on(t.hiddenBy),
  ],
);

/**
 * Each workflow's visible reviews, counted and summed, for the catalogue. Kept apart from `user_workflows` so
 * that a review never locks the row every run start reads. Review writers lock this row first and then count
 * again (`workflows/reviews.ts`); `version` grows with every write, so the catalogue's fingerprint sees any.
 */
export const workflowRatings = pgTable('workflow_ratings', {
  workflowId: uuid('workflow_id')
    .primaryKey()
    .references(() => userWorkflows.id, { onDelete: 'cascade' }),
  reviewCount: integer('review_count').notNull().default(0),
  ratingSum: integer('rating_sum').notNull().default(0),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** A problem that puts saved answers under review: the shared answer check's own (survey-schema.ts). */
export type SavedInputReviewProblem = Pick<AnswerProblem, 'field' | 'key' | 'params'>;

/**
 * Saved answers (migration 0023): a survey's answers kept under a name, run again without the form. `answers`
 * is keyed by question id, as POST /api/v1/runs takes them; a file question's answer is `{ fileId }`, a row of
 * saved_input_files (decision 159). When the workflow's questions change so that the answers no longer fit, `needsReview` is
 * set with the problems found, and the answers are never sent until the person saves them again.
 */
export const savedInputs = pgTable(
  'saved_inputs',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => userWorkflows.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    /** The language its runs are sent in (the questions' texts and option labels the workflow receives). */
    language: text('language', { enum: ['es', 'en'] })
      .notNull()
      .default('en'),
    needsReview: boolean('needs_review').notNull().default(false),
    reviewReason: jsonb('review_reason').$type<SavedInputReviewProblem[] | null>(),
    lastRunId: uuid('last_run_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('saved_inputs_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('saved_inputs_language_valid', sql`${t.language} in ('es', 'en')`),
    check('saved_inputs_review_reason', sql`${t.needsReview} = (${t.reviewReason} is not null)`),
    index('saved_inputs_user_created_idx').on(t.userId, t.createdAt.desc()),
    uniqueIndex('saved_inputs_name_idx').on(t.userId, t.workflowId, sql`lower(${t.name})`),
    index('saved_inputs_workflow_idx').on(t.workflowId),
    index('saved_inputs_last_run_idx')
      .on(t.lastRunId)
      .where(sql`${t.lastRunId} is not null`),
  ],
);

/**
 * A file answer kept with saved answers (migration 0032, decision 159): stored, checked and limited as a run's
 * input file (runInputFiles); the saved answers' `answers` name it as `{ fileId }`. Whoever deletes these rows
 * (or the saved answers, whose deletion cascades here) queues their keys for removal in the same transaction.
 */
export const savedInputFiles = pgTable(
  'saved_input_files',
  {
    id: id(),
    savedInputId: uuid('saved_input_id')
      .notNull()
      .references(() => savedInputs.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('saved_input_files_question_idx').on(t.savedInputId, t.questionId),
    check('saved_input_files_size_positive', sql`${t.size} > 0`),
  ],
);

/**
 * A schedule of saved answers (migration 0024, decision 141). `nextRunAt` is advanced in the transaction that
 * starts or skips its due run, so each due time is handled once; an inactive schedule has no next time and a
 * reason (`pausedReason`): paused by the person, after 3 skips in a row, or ended.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    savedInputId: uuid('saved_input_id')
      .notNull()
      .references(() => savedInputs.id, { onDelete: 'cascade' }),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    pausedReason: text('paused_reason', { enum: SCHEDULE_PAUSE_REASONS }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    skipsInARow: integer('skips_in_a_row').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('schedules_cron_length', sql`char_length(${t.cron}) between 1 and 100`),
    check('schedules_timezone_length', sql`char_length(${t.timezone}) between 1 and 64`),
    check('schedules_paused_reason_valid', sql`${t.pausedReason} in ('person', 'skips', 'ended')`),
    check(
      'schedules_active_state',
      sql`(${t.active} and ${t.pausedReason} is null and ${t.nextRunAt} is not null) or (not ${t.active} and ${t.pausedReason} is not null and ${t.nextRunAt} is null)`,
    ),
    uniqueIndex('schedules_saved_input_idx').on(t.savedInputId),
    index('schedules_user_idx').on(t.userId),
    index('schedules_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.active}`),
  ],
);

/** A schedule's history (migration 0024): each due time handled once, the run it started or why it skipped. */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: id(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    outcome: text('outcome', { enum: ['started', 'skipped'] }).notNull(),
    reason: text('reason', { enum: SCHEDULE_SKIP_REASONS }),
    runId: uuid('run_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    /** Earlier due times passed over while the service was down (up to 100). */
    missed: integer('missed').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('schedule_runs_outcome_valid', sql`${t.outcome} in ('started', 'skipped')`),
    check(
      'schedule_runs_reason_valid',
      sql`${t.reason} in ('insufficient_credits', 'workflow_unavailable', 'needs_review', 'account_suspended', 'missed')`,
    ),
    check('schedule_runs_reason_given', sql`(${t.outcome} = 'skipped') = (${t.reason} is not null)`),
    uniqueIndex('schedule_runs_due_idx').on(t.scheduleId, t.dueAt.desc()),
    index('schedule_runs_run_idx')
      .on(t.runId)
      .where(sql`${t.runId} is not null`),
  ],
);

/**
 * What a person is told about (decision 142), written in the transaction of the change that causes it. Rows
 * `in_bell` are listed under the bell; `mail_state` 'pending' rows are mailed by the notification-mail job,
 * which sets 'queued' in the transaction that writes the outbox row. Migration 0025 notifies the channel
 * `notification_changed` when a bell row is added or read, and writes low-balance rows from a trigger.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    runId: uuid('run_id').references(() => workflowExecutions.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id').references(() => userWorkflows.id, { onDelete: 'set null' }),
    params: jsonb('params').$type<TNotificationParams>().notNull().default({}),
    inBell: boolean('in_bell').notNull(),
    mailState: text('mail_state', { enum: ['none', 'pending', 'queued'] }).notNull(),
    /** A warning given once (per schedule and due time, say) names itself here. */
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'notifications_kind_valid',
      sql`${t.kind} in (${sql.raw(NOTIFICATION_KINDS.map((k) => `'${k}'`).join(', '))})`,
    ),
    check('notifications_mail_state_valid', sql`${t.mailState} in ('none', 'pending', 'queued')`),
    index('notifications_bell_idx')
      .on(t.userId, t.createdAt.desc())
      .where(sql`${t.inBell}`),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.inBell} and ${t.readAt} is null`),
    index('notifications_mail_due_idx')
      .on(t.createdAt)
      .where(sql`${t.mailState} = 'pending'`),
    uniqueIndex('notifications_dedupe_idx')
      .on(t.userId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
  ],
);

const ACCOUNT_WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const;

/**
 * An account's own webhook endpoint (migration 0026): the events it takes, optionally only some workflows'
 * runs (null: all), its Standard Webhooks secret and, while a rotation overlaps, the previous one.
 * `failing_since` is the first failed attempt since the last delivered one; after 3 days the endpoint is
 * disabled (`failing`), at once on a 410 answer (`gone`).
 */
export const accountWebhooks = pgTable(
  'account_webhooks',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    workflowIds: uuid('workflow_ids').array(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason', { enum: ACCOUNT_WEBHOOK_DISABLED_REASONS }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'account_webhooks_disabled_reason_valid',
      sql`${t.disabledReason} is null or ${t.disabledReason} in ('gone', 'failing')`,
    ),
    index('account_webhooks_user_idx').on(t.userId, t.createdAt),
  ],
);

/** The secret that signs the ad hoc deliveries of an account's runs (made on first use). */
export const accountWebhookSecrets = pgTable('account_webhook_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * One event on its way to one address: an endpoint's, or a run's ad hoc `url`. `next_attempt_at` is when it
 * is due (or, while an attempt is in flight, until when that attempt holds it); null once it is delivered or
 * given up. The body is written at the first attempt and then sent as it is on every retry and redelivery.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').references(() => accountWebhooks.id, { onDelete: 'cascade' }),
    url: text('url'),
    eventType: text('event_type').notNull(),
    runId: uuid('run_id'),
    data: jsonb('data'),
    body: text('body'),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    retryUntil: timestamp('retry_until', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('webhook_deliveries_status_valid', sql`${t.status} in ('pending', 'delivered', 'failed')`),
    check('webhook_deliveries_target', sql`${t.endpointId} is not null or ${t.url} is not null`),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} is not null`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc()),
    index('webhook_deliveries_user_idx').on(t.userId),
  ],
);
