import { z } from 'zod';
import { ZAccountStatus } from './auth.js';
import { ZBilingual, ZUserRef } from './common.js';
import { TRANSACTION_TYPES, ZLedgerNoteKind, ZLedgerNoteParams, ZTransactionType } from './credits.js';
import { ZEmailStatus } from './emails.js';
import {
  ZCompleteRunRequest,
  ZExecutionStatus,
  OUTPUT_TYPES,
  ZRunFailureCode,
  ZRunOrigin,
} from './executions.js';
import { ZWorkflowPauseReason } from './operations.js';
import { INTERACTION_TYPES, ZSurveyQuestion, ZWorkflowInput } from './workflows.js';

/*
 * The admin panel's API (every /api/admin route and DELETE /api/workflows/{id}).
 * Dates are ISO 8601 strings. Lists answer a JSON array with the total matching rows in `X-Total-Count`.
 */

// ---------------------------------------------------------------------------------------------------------
// Lists: paging, search and filters
// ---------------------------------------------------------------------------------------------------------

const ADMIN_LIST_DEFAULT_LIMIT = 100;
const ADMIN_LIST_MAX_LIMIT = 500;
/** Header that carries the number of rows matching the filters (all pages). */
export const TOTAL_COUNT_HEADER = 'x-total-count';
/**
 * Present (`true`) when more than 10,000 rows match: the total is then the database's estimate, since an
 * exact count of millions of rows would make the list slow. The UI may show it as "about N".
 */
export const TOTAL_ESTIMATED_HEADER = 'x-total-count-estimated';

/** An empty query value (or the UI's "all") means "no filter". */
const blankToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
const optionalFilter = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const ZListPaging = z.object({
  /** Free-text search; what it matches depends on the list (see each query schema). */
  q: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  limit: z.coerce.number().int().min(1).max(ADMIN_LIST_MAX_LIMIT).default(ADMIN_LIST_DEFAULT_LIMIT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** A workflow as a list row refers to it; null in a row once the workflow is deleted. */
const ZWorkflowRef = z.object({ id: z.uuid(), name: ZBilingual });

// E-mails (the outbox) ---------------------------------------------------------------------------------------

/** `q` matches the start of the recipient's address. */
export const ZAdminEmailListQuery = ZListPaging.extend({ status: optionalFilter(ZEmailStatus) });

// Users -----------------------------------------------------------------------------------------------------

/** The user list's status filter: deleted accounts are listed only under `deleted`, never by default. */
export const ADMIN_USER_STATUSES = [...ZAccountStatus.options, 'deleted'] as const;

/**
 * `q` matches any part of the e-mail, or each of its words any part of the full name; accents and case aside.
 * Without `status`, the live accounts (active and suspended); `status=deleted` lists the deleted ones.
 */
export const ZAdminUserListQuery = ZListPaging.extend({
  status: optionalFilter(z.enum(ADMIN_USER_STATUSES)),
  role: optionalFilter(z.enum(['admin', 'user'])),
});

export const ZAdminUser = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.string().nullable(),
  isAdmin: z.boolean(),
  accountStatus: ZAccountStatus,
  credits: z.number().int(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the person deleted the account (its e-mail and name are then anonymised); null for live accounts. */
  deletedAt: z.string().nullable(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;
export const ZAdminUserList = z.array(ZAdminUser);

/** PATCH /api/admin/users/{id}: at least one field. Suspending revokes every session of the user at once. */
export const ZAdminUserUpdate = z
  .object({
    accountStatus: ZAccountStatus.optional(),
    isAdmin: z.boolean().optional(),
  })
  .refine((b) => b.accountStatus !== undefined || b.isAdmin !== undefined, {
    message: 'Nothing to change',
  });
export type TAdminUserUpdate = z.infer<typeof ZAdminUserUpdate>;

/** POST /api/admin/users/adjust-credits: a signed whole amount; a balance never goes below zero (409). */
export const ZAdjustCreditsRequest = z.object({
  userId: z.uuid(),
  amount: z
    .number()
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .refine((n) => n !== 0, { message: 'The amount cannot be zero' }),
  reason: z.string().trim().min(1, { message: 'You must provide a reason' }).max(500),
});
export type TAdjustCreditsRequest = z.infer<typeof ZAdjustCreditsRequest>;
export const ZAdjustCreditsResponse = z.object({
  userId: z.uuid(),
  /** The balance after the adjustment. */
  credits: z.number().int(),
});
export type TAdjustCreditsResponse = z.infer<typeof ZAdjustCreditsResponse>;

// Workflows -------------------------------------------------------------------------------------------------

/**
 * `q` matches name or description in either language (contains, case-insensitive); `category` is a
 * category label in either language (e.g. "Marketing" or "Ventas"), compared case-insensitively.
 */
export const ZAdminWorkflowListQuery = ZListPaging.extend({
  /** `archived` lists the archived workflows; `active` and `inactive` the others by their switch. */
  status: optionalFilter(z.enum(['active', 'inactive', 'archived'])),
  visibility: optionalFilter(z.enum(['public', 'private'])),
  category: z.preprocess(blankToUndefined, z.string().trim().min(1).max(200).optional()),
  /** `health`: the least reliable first (30-day success rate; workflows without finished runs last). */
  sort: optionalFilter(z.enum(['newest', 'health'])),
});

const ZAdminWorkflow = z.object({
  id: z.uuid(),
  name: ZBilingual,
  description: ZBilingual.nullable(),
  category: ZBilingual,
  /** The owner; null if the owner's account was deleted. */
  owner: ZUserRef.extend({ fullName: z.string().nullable() }).nullable(),
  webhookUrl: z.string(),
  isPublic: z.boolean(),
  isActive: z.boolean(),
  executionCount: z.number().int(),
  interactionType: z.enum(INTERACTION_TYPES),
  creditsPerExecution: z.number().int(),
  /** The number of its current version (GET /api/admin/workflows/{id}/versions). */
  version: z.number().int(),
  /** When it was archived (out of the catalogue, not startable); null when it is not. */
  archivedAt: z.string().nullable(),
  /** Set while paused (decision 146): `auto` after failures in a row, `manual` by an admin. */
  pausedAt: z.string().nullable(),
  pausedReason: ZWorkflowPauseReason.nullable(),
  /** The list's rows: counted runs finished in 30 days and their success rate (0-100, null without any). */
  health: z.object({ finished: z.number().int(), successRate: z.number().nullable() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminWorkflow = z.infer<typeof ZAdminWorkflow>;
export const ZAdminWorkflowList = z.array(ZAdminWorkflow);

/** GET /api/admin/workflows/{id}: everything the edit form needs (the secret has its own call). */
export const ZAdminWorkflowDetail = ZAdminWorkflow.extend({
  userId: z.uuid().nullable(),
  welcomeMessage: ZBilingual.nullable(),
  aiPrompt: z.string().nullable(),
  surveyQuestions: z.array(ZSurveyQuestion),
});
export type TAdminWorkflowDetail = z.infer<typeof ZAdminWorkflowDetail>;

/** POST /api/admin/workflows: the create page's form (owner must exist, else 400). */
export const ZAdminWorkflowCreate = ZWorkflowInput;

const inputShape = ZWorkflowInput.shape;
/**
 * PATCH /api/admin/workflows/{id}: any subset of the form's fields. `{ isActive }` alone is a status change;
 * anything else is an edit. The merged workflow must still pass the create rules (400 otherwise).
 */
export const ZAdminWorkflowUpdate = z
  .object({
    userId: inputShape.userId.optional(),
    name: inputShape.name.optional(),
    description: inputShape.description,
    category: inputShape.category.optional(),
    webhookUrl: inputShape.webhookUrl.optional(),
    isPublic: inputShape.isPublic.unwrap().optional(),
    isActive: inputShape.isActive.unwrap().optional(),
    creditsPerExecution: inputShape.creditsPerExecution.unwrap().optional(),
    interactionType: inputShape.interactionType.unwrap().optional(),
    welcomeMessage: inputShape.welcomeMessage,
    aiPrompt: inputShape.aiPrompt,
    surveyQuestions: inputShape.surveyQuestions.unwrap().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to change' });
export type TAdminWorkflowUpdate = z.infer<typeof ZAdminWorkflowUpdate>;

/** POST /api/admin/workflows/{id}/test-runs: an admin's test run, charged to no one (decision 147). */
export const ZTestRunRequest = z.object({ language: z.enum(['es', 'en']).optional() }).strict();
export const ZTestRunResponse = z.object({ executionId: z.uuid() });

/**
 * POST /api/v1/admin/workflows/{id}/test-runs (decision 165): the same test run, opened and, for a survey,
 * sent at once with its answers (the web complete call's `responses`), as the test screen does in two steps.
 * `wait` holds the answer up to that many seconds for the result. A chat's test run takes no answers: its
 * conversation goes through POST /api/v1/runs/{id}/messages with the same key.
 */
export const ZAdminApiTestRunCreate = ZTestRunRequest.extend({
  responses: ZCompleteRunRequest.shape.responses.optional(),
  wait: z.number().int().min(0).max(60).optional(),
}).strict();

/** DELETE /api/workflows/{id}: its runs go with it; its ledger rows stay with no workflow. */
export const ZDeleteWorkflowResponse = z.object({
  ok: z.literal(true),
  deletedExecutions: z.number().int(),
});

/**
 * GET /api/admin/workflows/{id}/secret and POST .../rotate-secret: the Standard Webhooks signing secret
 * (`whsec_...`). After a rotation the previous secret still signs (a second signature) until it expires.
 */
export const ZWorkflowSecret = z.object({
  secretToken: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
  /** The fixed `X-Flujo-Token` header value for n8n's Header Auth, derived from the current secret. */
  headerToken: z.string(),
});
export type TWorkflowSecret = z.infer<typeof ZWorkflowSecret>;

// Executions ------------------------------------------------------------------------------------------------

/** `q` matches any part of the workflow's name (either language) or of the user's e-mail or name; accents and case aside. */
export const ZAdminExecutionListQuery = ZListPaging.extend({
  status: optionalFilter(ZExecutionStatus),
  /** Where the runs were started: the web app, the public API, MCP or a schedule. */
  origin: optionalFilter(ZRunOrigin),
});

const ZAdminExecution = z.object({
  id: z.uuid(),
  workflow: ZWorkflowRef.nullable(),
  user: ZUserRef.nullable(),
  status: ZExecutionStatus,
  /** Where the run was started. */
  origin: ZRunOrigin,
  outputType: z.enum(OUTPUT_TYPES).nullable(),
  outputFilename: z.string().nullable(),
  creditsUsed: z.number().int(),
  /** Why a failed or expired run ended so (the customer reads this code's plain explanation). */
  errorCode: ZRunFailureCode.nullable(),
  /** The technical detail: an HTTP status, a network error, the workflow's own message. */
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TAdminExecution = z.infer<typeof ZAdminExecution>;
export const ZAdminExecutionList = z.array(ZAdminExecution);

// Credits (the ledger) --------------------------------------------------------------------------------------

/** The panel's type filter offers every type the ledger has. */
export const ADMIN_TRANSACTION_TYPES = TRANSACTION_TYPES;

/** `q` matches any part of the user's e-mail or name; accents and case aside. */
export const ZAdminCreditListQuery = ZListPaging.extend({
  type: optionalFilter(ZTransactionType),
});

const ZAdminCreditTransaction = z.object({
  id: z.uuid(),
  user: ZUserRef.nullable(),
  transactionType: ZTransactionType,
  /** Signed: positive grants, negative spends. */
  amount: z.number().int(),
  /** The admin's reason or a text from before note kinds; otherwise the note's English wording. */
  notes: z.string().nullable(),
  noteKind: ZLedgerNoteKind,
  noteParams: ZLedgerNoteParams,
  usdAmount: z.string().nullable(),
  planName: z.string().nullable(),
  /** Null when the row never had a workflow, or (usage and refund rows) once it was deleted. */
  workflow: ZWorkflowRef.nullable(),
  createdAt: z.string(),
});
export type TAdminCreditTransaction = z.infer<typeof ZAdminCreditTransaction>;
export const ZAdminCreditTransactionList = z.array(ZAdminCreditTransaction);

// Audit -----------------------------------------------------------------------------------------------------

export const AUDIT_ACTIONS = [
  'user_created',
  'user_updated',
  'user_suspended',
  'credits_adjusted',
  'workflow_created',
  'workflow_updated',
  'workflow_deleted',
  'workflow_status_changed',
  'workflow_archived',
  'workflow_unarchived',
  'workflow_version_restored',
  'config_updated',
  'password_reset_sent',
  'email_retried',
  'review_hidden',
  'review_unhidden',
  /** Not an admin's act: Stripe reported a refund or dispute and the payment's credits were taken back. */
  'payment_reversed',
  /** An admin downloaded runs or ledger rows as CSV (the range and filters in details). */
  'data_exported',
  /** Not an admin's act: the workflow failed auto_pause_consecutive_failures runs in a row (decision 146). */
  'workflow_auto_paused',
  'workflow_paused',
  'workflow_resumed',
  /** An admin disconnected one of a person's OAuth apps (decision 162). */
  'oauth_grant_revoked',
] as const;
const ZAuditAction = z.enum(AUDIT_ACTIONS);
export type TAuditAction = z.infer<typeof ZAuditAction>;
export const AUDIT_TARGET_TYPES = ['user', 'workflow', 'config', 'email', 'review', 'export'] as const;

/** `q` matches any part of the admin's e-mail or name or of the action ("suspend" finds `user.suspend`). */
export const ZAdminAuditListQuery = ZListPaging.extend({
  action: optionalFilter(ZAuditAction),
});

const ZAdminAuditEntry = z.object({
  id: z.uuid(),
  /** The admin who acted; null if that account was deleted since. */
  admin: ZUserRef.nullable(),
  actionType: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** What changed (never a secret). */
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type TAdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;
export const ZAdminAuditList = z.array(ZAdminAuditEntry);

// Configuration ---------------------------------------------------------------------------------------------

export const ZAdminConfigEntry = z.object({
  id: z.uuid(),
  key: z.string(),
  description: ZBilingual,
  /** Any JSON; each key has its own schema on the server (shared/contract/config.ts). */
  value: z.unknown(),
  updatedAt: z.string(),
});
export type TAdminConfigEntry = z.infer<typeof ZAdminConfigEntry>;
export const ZAdminConfigList = z.array(ZAdminConfigEntry);

/** PATCH /api/admin/config/{id}: the new value, checked against the key's schema (400 otherwise). */
export const ZAdminConfigUpdate = z.object({ value: z.unknown() });

// Dashboard -------------------------------------------------------------------------------------------------

export const STATS_DAYS = 30;

export const ZAdminStats = z.object({
  totals: z.object({
    users: z.number().int(),
    workflows: z.number().int(),
    executions: z.number().int(),
    /** Sum of every positive ledger amount. */
    creditsDistributed: z.number().int(),
  }),
  /** The 5 workflows with the most runs. */
  topWorkflows: z.array(ZWorkflowRef.extend({ executionCount: z.number().int() })),
  /** The 5 newest runs. */
  recentActivity: z.array(
    z.object({
      id: z.uuid(),
      workflow: ZWorkflowRef.nullable(),
      user: ZUserRef.nullable(),
      status: ZExecutionStatus,
      createdAt: z.string(),
    }),
  ),
  /** One entry per UTC day (oldest first, `date` = YYYY-MM-DD), the last 30 days including today. */
  runsPerDay: z.array(
    z.object({
      date: z.string(),
      pending: z.number().int(),
      running: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      expired: z.number().int(),
    }),
  ),
  /** Same days: credits granted (positive ledger amounts) and spent (usage, as a positive number). */
  creditsPerDay: z.array(z.object({ date: z.string(), granted: z.number().int(), spent: z.number().int() })),
  /**
   * True when a real deployment (PostgreSQL) grants purchases without payment (PAYMENT_PROVIDER=demo): the
   * panel shows a warning banner. Always false on the embedded database, where that is the point.
   */
  demoPayments: z.boolean(),
  /**
   * True when no LLM is configured (no LLM_BASE_URL): chats are answered by the built-in scripted demo
   * assistant, and the configuration screen says so.
   */
  demoAssistant: z.boolean(),
});
export type TAdminStats = z.infer<typeof ZAdminStats>;

// Admin API (/api/v1/admin/, an admin API key) -----------------------------------------------------------

/**
 * PUT /api/v1/admin/workflows/{id}/webhook: registers the workflow service's webhook URL and switches the
 * workflow on (an n8n trigger node calls it when its workflow is activated).
 */
export const ZAdminWebhookRegistration = z.object({ webhookUrl: ZWorkflowInput.shape.webhookUrl }).strict();

/**
 * DELETE /api/v1/admin/workflows/{id}/webhook?webhookUrl=: the service stopped answering at that URL (its n8n
 * workflow was deactivated), so the workflow is switched off; if another URL has been registered since, the
 * call changes nothing.
 */
export const ZAdminWebhookRemoval = z.object({ webhookUrl: ZWorkflowInput.shape.webhookUrl });
