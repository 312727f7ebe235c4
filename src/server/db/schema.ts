import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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
import type { TSurveyQuestion } from '#shared/contract/workflows.js';

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
    index('user_profiles_created_idx').on(t.createdAt.desc()),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('user_workflows_credits_min', sql`${t.creditsPerExecution} >= 1`),
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
    chatMessageCount: integer('chat_message_count').notNull().default(0),
    dispatchAttempts: integer('dispatch_attempts').notNull().default(0),
    nextDispatchAt: timestamp('next_dispatch_at', { withTimezone: true }),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When the stored result file (result_path) is deleted; kept afterwards, so the run says it expired. */
    fileExpiresAt: timestamp('file_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('executions_user_created_idx').on(t.userId, t.createdAt.desc()),
    // Admin run list searched by workflow: newest first without sorting a popular workflow's every run. It
    // also serves the workflow foreign key (a plain workflow_id index would only cost every insert a write).
    index('executions_workflow_created_idx').on(t.workflowId, t.createdAt.desc()),
    index('executions_status_created_idx').on(t.status, t.createdAt.desc()),
    index('executions_created_idx').on(t.createdAt.desc()),
    index('executions_open_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending', 'running')`),
    index('executions_file_expiry_idx')
      .on(t.fileExpiresAt)
      .where(sql`${t.resultPath} is not null`),
    index('executions_dispatch_due_idx')
      .on(t.nextDispatchAt)
      .where(sql`${t.nextDispatchAt} is not null`),
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
    index('ledger_created_idx').on(t.createdAt.desc()),
    index('ledger_workflow_idx').on(t.workflowId),
    uniqueIndex('ledger_one_usage_per_run')
      .on(t.executionId)
      .where(sql`${t.transactionType} = 'usage'`),
    uniqueIndex('ledger_one_refund_per_run')
      .on(t.executionId)
      .where(sql`${t.transactionType} = 'refund'`),
  ],
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

/**
 * What a Stripe payment granted, found again by its payment intent or invoice when Stripe reports a refund or a
 * dispute: the credits to take back, and how many already were (or could not be, the balance being too low).
 */
export const stripePayments = pgTable('stripe_payments', {
  id: id(),
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
});

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
    createdAt: createdAt(),
  },
  (t) => [
    check('api_keys_limit_positive', sql`${t.monthlyCreditLimit} is null or ${t.monthlyCreditLimit} > 0`),
    check('api_keys_spent_non_negative', sql`${t.spentCredits} >= 0`),
    index('api_keys_user_idx').on(t.userId),
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
