import { z } from 'zod';
import { OUTPUT_TYPES, ZExecutionStatus, ZRunOrigin } from './executions.js';

/*
 * The customer's own webhooks (decision 143): endpoints managed in account settings (cookie routes under
 * /api/account/webhooks) and by the public API (/api/v1/webhooks), deliveries signed per Standard Webhooks.
 */

export const ACCOUNT_EVENT_TYPES = [
  'run.completed',
  'run.failed',
  'run.expired',
  'schedule.skipped',
  'credits.low',
] as const;
const ZAccountEventType = z.enum(ACCOUNT_EVENT_TYPES);
export type TAccountEventType = z.infer<typeof ZAccountEventType>;

/** The type a "send test event" delivery carries; no endpoint subscribes to it, each can be sent one. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_URL_MAX = 2000;
/** Most workflows one endpoint may be limited to. */
export const WEBHOOK_WORKFLOWS_MAX = 50;
/** Deliveries a log shows (newest first). */
export const WEBHOOK_LOG_LIMIT = 50;

export const ZWebhookUrl = z.url({ protocol: /^https?$/ }).max(WEBHOOK_URL_MAX);

/** POST /api/v1/webhooks and POST /api/account/webhooks. */
export const ZWebhookCreate = z.object({
  url: ZWebhookUrl,
  events: z.array(ZAccountEventType).min(1).max(ACCOUNT_EVENT_TYPES.length),
  /** Only these workflows' runs (run events only); absent or empty: every workflow. */
  workflowIds: z.array(z.uuid()).max(WEBHOOK_WORKFLOWS_MAX).optional(),
});
export type TWebhookCreate = z.infer<typeof ZWebhookCreate>;

export const ZWebhook = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(ZAccountEventType),
  /** null: every workflow. */
  workflowIds: z.array(z.uuid()).nullable(),
  /** Until when the previous secret still signs beside the current one (a rotation's overlap), if it does. */
  previousSecretExpiresAt: z.string().nullable(),
  /** `gone`: the receiver answered 410; `failing`: every attempt failed for 3 days. null: enabled. */
  disabledReason: z.enum(['gone', 'failing']).nullable(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZWebhookList = z.object({ webhooks: z.array(ZWebhook) });

/** The answer to a creation or a rotation: the only time the secret is shown. */
export const ZWebhookCreated = z.object({ id: z.uuid(), secret: z.string() });
export type TWebhookCreated = z.infer<typeof ZWebhookCreated>;

const ZWebhookDelivery = z.object({
  id: z.uuid(),
  /** The event's type (`run.completed`, ..., or `webhook.test`). */
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The last answer's HTTP status; null when none came (network error, timeout, refused address). */
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.object({ deliveries: z.array(ZWebhookDelivery) });

/** POST .../test and .../redeliver: the delivery queued (it is sent within seconds). */
export const ZWebhookDeliveryQueued = z.object({ deliveryId: z.uuid() });

export const ZWebhookDeliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });

/**
 * A run as a run event carries it: the delivery's body is built to this type, and the schema states it for
 * readers of the contract (docs/api.md describes the same fields).
 * @public
 */
export const ZWebhookRunData = z.object({
  id: z.uuid(),
  workflowId: z.uuid().nullable(),
  status: ZExecutionStatus,
  /** How the run was started: `web`, `api`, `mcp` or `schedule`. */
  origin: ZRunOrigin,
  creditsUsed: z.number().int(),
  outputType: z.enum(OUTPUT_TYPES).nullable(),
  outputData: z.unknown().nullable(),
  /** A stored result file: download it with the run owner's API key. */
  resultUrl: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
export type TWebhookRunData = z.infer<typeof ZWebhookRunData>;

/** POST .../webhooks/run-secret: the account's new secret for runs' own `webhookUrl`, shown this once. */
export const ZAccountWebhookSecret = z.object({ secret: z.string() });
