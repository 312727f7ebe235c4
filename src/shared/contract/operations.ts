import { z } from 'zod';
import { ZBilingual } from './common.js';

/*
 * What the operator sees of a workflow's service (decisions 144-146): each run's delivery log, the workflow's
 * health, its incidents, and pausing it. Every route here is an admin's, except the public health summary
 * that the catalogue's items carry (ZPublicHealth).
 */

/** Why a workflow is paused: automatically after failures in a row, or by an admin. */
export const WORKFLOW_PAUSE_REASONS = ['auto', 'manual'] as const;
export const ZWorkflowPauseReason = z.enum(WORKFLOW_PAUSE_REASONS);

/** How a counted run ended, as health counts it; `refused` (the service refused the answers) is the customer's. */
export const HEALTH_OUTCOMES = ['completed', 'failed', 'expired', 'refused'] as const;

export const INCIDENT_KINDS = ['consecutive_failures', 'failure_rate'] as const;
const ZIncidentKind = z.enum(INCIDENT_KINDS);

/**
 * Upper bounds (ms) of the buckets of the completed runs' times that health keeps per day; the last bucket is
 * open. Percentiles are read from them (interpolated inside a bucket), which is what "about" means.
 */
export const DURATION_BUCKETS_MS = [
  1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000,
  10_800_000,
] as const;

// ---------------------------------------------------------------------------------------------------------
// Delivery log
// ---------------------------------------------------------------------------------------------------------

const ZDeliveryLogEntry = z.object({
  id: z.number().int(),
  kind: z.enum(['call', 'callback']),
  at: z.string(),
  /** A call's attempt number (1, 2, 3...). */
  attempt: z.number().int().nullable(),
  /** The HTTP status the service answered (a call) or the callback got (a callback); null on a network error. */
  httpStatus: z.number().int().nullable(),
  /** A call: accepted (2xx), refused (4xx), error (3xx, 5xx, network), blocked (address). A callback: accepted, refused. */
  outcome: z.string(),
  /** A network error, or why a callback was refused (wrong token, run already ended, bad file, too large). */
  error: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
  responseBytes: z.number().int().nullable(),
  /** The first 2 KB of the answer or of the callback's body, with secrets and tokens redacted. */
  excerpt: z.string().nullable(),
});
export type TDeliveryLogEntry = z.infer<typeof ZDeliveryLogEntry>;

const ZRunLedgerRow = z.object({
  id: z.uuid(),
  amount: z.number().int(),
  type: z.string(),
  createdAt: z.string(),
});

/** GET /api/admin/executions/{id}: a run as the operator reads it. */
export const ZAdminRunDetail = z.object({
  id: z.uuid(),
  workflow: z.object({ id: z.uuid(), name: ZBilingual }),
  user: z.object({ id: z.uuid(), email: z.string().nullable() }),
  status: z.string(),
  origin: z.string(),
  createdAt: z.string(),
  dispatchedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  creditsUsed: z.number().int(),
  dispatchAttempts: z.number().int(),
  /** Whether "retry delivery now" applies: the run is running and its service has not accepted it yet. */
  canRetryDelivery: z.boolean(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  progressMessage: z.string().nullable(),
  inputData: z.unknown(),
  outputType: z.string().nullable(),
  outputData: z.unknown(),
  outputFilename: z.string().nullable(),
  outputUrl: z.string().nullable(),
  log: z.array(ZDeliveryLogEntry),
  ledger: z.array(ZRunLedgerRow),
});
export type TAdminRunDetail = z.infer<typeof ZAdminRunDetail>;

export const ZRetryDeliveryResponse = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------------------------------------------------
// Health
// ---------------------------------------------------------------------------------------------------------

const ZHealthWindow = z.object({
  /** Counted runs that ended: completed + failed + expired (refusals are the customer's, counted apart). */
  finished: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  expired: z.number().int(),
  refused: z.number().int(),
  /** completed / finished, 0-100 with one decimal; null without finished runs. */
  successRate: z.number().nullable(),
  /** Time to result of the completed runs, in ms (estimated from the daily histogram for 7 and 30 days). */
  medianMs: z.number().int().nullable(),
  p95Ms: z.number().int().nullable(),
});
export type THealthWindow = z.infer<typeof ZHealthWindow>;

const ZHealthDay = z.object({
  day: z.string(),
  completed: z.number().int(),
  failed: z.number().int(),
  expired: z.number().int(),
  refused: z.number().int(),
});

const ZIncident = z.object({
  id: z.uuid(),
  workflow: z.object({ id: z.uuid(), name: ZBilingual }),
  kind: ZIncidentKind,
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type TIncident = z.infer<typeof ZIncident>;

/** GET /api/admin/workflows/{id}/health */
export const ZWorkflowHealth = z.object({
  workflowId: z.uuid(),
  pausedAt: z.string().nullable(),
  pausedReason: ZWorkflowPauseReason.nullable(),
  consecutiveFailures: z.number().int(),
  day: ZHealthWindow,
  week: ZHealthWindow,
  month: ZHealthWindow,
  /** The last 30 days (UTC), oldest first, days without runs included. */
  daily: z.array(ZHealthDay),
  incidents: z.array(ZIncident),
});
export type TWorkflowHealth = z.infer<typeof ZWorkflowHealth>;

/** GET /api/admin/incidents: the open incidents, newest first. */
export const ZIncidentList = z.array(ZIncident);

/** POST /api/admin/workflows/{id}/pause and /resume */
export const ZPauseResponse = z.object({
  pausedAt: z.string().nullable(),
  pausedReason: ZWorkflowPauseReason.nullable(),
});

/**
 * What the public sees of a workflow's health, once it has at least PUBLIC_HEALTH_MIN_RUNS finished runs in
 * 30 days (null before): the success rate in whole percent and the median time to result.
 */
export const PUBLIC_HEALTH_MIN_RUNS = 20;
export const ZPublicHealth = z
  .object({ successPercent: z.number().int().min(0).max(100), typicalMs: z.number().int().nullable() })
  .nullable();
export type TPublicHealth = z.infer<typeof ZPublicHealth>;

/** GET/PUT /api/admin/alerts/me: whether this admin gets the workflow alert mails. */
export const ZAlertPreference = z.object({ workflowAlerts: z.boolean() });
