import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { TEST_EVENT_TYPE, type TWebhookRunData } from '#shared/contract/webhooks.js';
import type { DbOrTx } from '#server/db/client.js';
import {
  accountWebhooks,
  accountWebhookSecrets,
  userProfiles,
  webhookDeliveries,
  workflowExecutions,
} from '#server/db/schema.js';
import { iso } from '#server/lib/dates.js';
import {
  postWebhook,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
  type DeliveryOutcome,
} from '#server/providers/webhooks/send.js';
import { webhookHeaders } from '#server/providers/webhooks/signature.js';
import type { AppDeps } from '#server/types.js';
import { toExecution } from '../executions/service.js';
import { appLink, enqueueMail } from '../mail/service.js';
import { apiResultUrl } from '../public-api/service.js';

/**
 * Delay before the next attempt after attempt n failed (Standard Webhooks' usual schedule); the last ones are
 * cut to the delivery's retry window (24 hours), after which it is given up.
 */
export const BACKOFF_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
] as const;
/** An endpoint whose every attempt failed this long is disabled and its owner mailed. */
export const FAILING_DISABLE_MS = 3 * 24 * 3600_000;
/** While an attempt is in flight its row is leased; a crashed instance's attempt is retried after this. */
const LEASE_MS = WEBHOOK_ATTEMPT_TIMEOUT_MS + 20_000;
/** The receiver's answer matters only by its status; this much of its body is read, for the log. */
const ANSWER_BYTES = 1024;
/** A log's error text is cut to this. */
const ERROR_CHARS = 300;
const JOB_BATCH = 20;
/** Finished deliveries (delivered or given up) are kept this long for the log, then deleted. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_BATCH = 500;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * The delivery job: claims due deliveries with FOR UPDATE SKIP LOCKED and leases them (attempt counted, due
 * again only once the lease is past, after a crash), so instances running it together never send one twice at
 * once; then sends them outside the transaction.
 */
export async function deliverDueWebhooks(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const claimed = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(lte(webhookDeliveries.nextAttemptAt, now))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(JOB_BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + LEASE_MS),
        lastAttemptAt: now,
      })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
  await Promise.all(claimed.map((row) => sendClaimed(deps, row)));
  return claimed.length;
}

interface Target {
  url: string;
  secrets: string[];
  /** The endpoint's id; null for a run's ad hoc address. */
  endpointId: string | null;
}

/** Where a delivery goes and the secrets that sign it; null when its endpoint is disabled (not for a test). */
async function targetOf(deps: AppDeps, row: DeliveryRow, now: Date): Promise<Target | 'disabled' | null> {
  const live = (previous: string | null, until: Date | null) =>
    previous && until && until > now ? [previous] : [];
  if (row.endpointId) {
    const [endpoint] = await deps.db
      .select()
      .from(accountWebhooks)
      .where(eq(accountWebhooks.id, row.endpointId));
    if (!endpoint) return null;
    if (endpoint.disabledAt && row.eventType !== TEST_EVENT_TYPE) return 'disabled';
    return {
      url: endpoint.url,
      secrets: [endpoint.secret, ...live(endpoint.previousSecret, endpoint.previousSecretExpiresAt)],
      endpointId: endpoint.id,
    };
  }
  const [account] = await deps.db
    .select()
    .from(accountWebhookSecrets)
    .where(eq(accountWebhookSecrets.userId, row.userId));
  if (!account || !row.url) return null;
  return {
    url: row.url,
    secrets: [account.secret, ...live(account.previousSecret, account.previousSecretExpiresAt)],
    endpointId: null,
  };
}

/** A run as its events carry it, read as it ended. */
async function runData(deps: AppDeps, runId: string): Promise<TWebhookRunData | null> {
  const [run] = await deps.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, runId));
  if (!run) return null;
  const execution = toExecution({ run, workflowName: null }, deps.now());
  return {
    id: run.id,
    workflowId: run.workflowId,
    status: run.status,
    origin: run.origin,
    creditsUsed: run.creditsUsed,
    outputType: run.outputType,
    outputData: run.outputData ?? null,
    resultUrl: execution.resultPath ? apiResultUrl(deps.config.publicUrl, run.id) : null,
    startedAt: iso(run.createdAt),
    endedAt: run.completedAt ? iso(run.completedAt) : null,
    errorMessage: execution.errorMessage,
  };
}

/** The body every attempt of the delivery sends: written at its first attempt, then kept. */
async function bodyOf(deps: AppDeps, row: DeliveryRow): Promise<string | null> {
  if (row.body !== null) return row.body;
  let data: unknown = row.data;
  if (row.runId) {
    const run = await runData(deps, row.runId);
    if (!run) return null;
    data = { run };
  }
  const body = JSON.stringify({ type: row.eventType, timestamp: iso(row.createdAt), data: data ?? {} });
  await deps.db.update(webhookDeliveries).set({ body }).where(eq(webhookDeliveries.id, row.id));
  return body;
}

async function sendClaimed(deps: AppDeps, row: DeliveryRow): Promise<void> {
  const now = deps.now();
  const target = await targetOf(deps, row, now);
  const body = target && target !== 'disabled' ? await bodyOf(deps, row) : null;
  if (target === null || target === 'disabled' || body === null) {
    await giveUp(
      deps.db,
      row.id,
      target === 'disabled' ? 'the endpoint is disabled' : 'nothing left to send',
    );
    return;
  }
  const started = performance.now();
  const outcome = await postWebhook({
    url: target.url,
    body,
    allowPrivate: deps.config.allowPrivateWebhooks,
    maxAnswerBytes: ANSWER_BYTES,
    // Stable per delivery, so a receiver can drop a retried or redelivered event it already handled.
    headers: webhookHeaders(target.secrets, `msg_${row.id}`, Math.floor(now.getTime() / 1000), body),
  });
  const latencyMs = Math.round(performance.now() - started);
  await recordOutcome(deps, row, target, outcome, latencyMs);
}

async function giveUp(db: DbOrTx, id: string, why: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastError: why })
    .where(eq(webhookDeliveries.id, id));
}

function errorOf(outcome: DeliveryOutcome): string | null {
  if (outcome.kind === 'answered') {
    return outcome.status >= 200 && outcome.status < 300 ? null : `HTTP ${outcome.status}`;
  }
  const text = outcome.kind === 'refused' ? `address not allowed: ${outcome.message}` : outcome.message;
  return text.slice(0, ERROR_CHARS);
}

async function recordOutcome(
  deps: AppDeps,
  row: DeliveryRow,
  target: Target,
  outcome: DeliveryOutcome,
  latencyMs: number,
): Promise<void> {
  const now = deps.now();
  const status = outcome.kind === 'answered' ? outcome.status : null;
  const seen = { lastStatus: status, lastLatencyMs: latencyMs, lastError: errorOf(outcome) };
  const mine = and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.attempts, row.attempts));
  if (status !== null && status >= 200 && status < 300) {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({ ...seen, status: 'delivered', nextAttemptAt: null, deliveredAt: now })
        .where(mine);
      if (target.endpointId) {
        await tx
          .update(accountWebhooks)
          .set({ failingSince: null })
          .where(eq(accountWebhooks.id, target.endpointId));
      }
    });
    return;
  }
  const gone = status === 410;
  const retryAt = new Date(now.getTime() + (BACKOFF_MS[row.attempts - 1] ?? BACKOFF_MS.at(-1)!));
  const next = gone || now >= row.retryUntil ? null : retryAt < row.retryUntil ? retryAt : row.retryUntil;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ ...seen, status: next ? 'pending' : 'failed', nextAttemptAt: next })
      .where(mine);
    if (!target.endpointId) return;
    const [endpoint] = await tx
      .update(accountWebhooks)
      .set({
        failingSince: sql`coalesce(${accountWebhooks.failingSince}, ${now.toISOString()}::timestamptz)`,
      })
      .where(eq(accountWebhooks.id, target.endpointId))
      .returning({ failingSince: accountWebhooks.failingSince });
    const failingTooLong =
      endpoint?.failingSince && now.getTime() - endpoint.failingSince.getTime() >= FAILING_DISABLE_MS;
    if (gone || failingTooLong) await disableEndpoint(deps, tx, target.endpointId, gone ? 'gone' : 'failing');
  });
}

/**
 * Turns the endpoint off (once: only the call that finds it enabled does) and tells its owner by mail, in the
 * same transaction; its pending deliveries are given up at their next claim.
 */
async function disableEndpoint(
  deps: AppDeps,
  tx: DbOrTx,
  endpointId: string,
  reason: 'gone' | 'failing',
): Promise<void> {
  const [endpoint] = await tx
    .update(accountWebhooks)
    .set({ disabledAt: deps.now(), disabledReason: reason })
    .where(and(eq(accountWebhooks.id, endpointId), isNull(accountWebhooks.disabledAt)))
    .returning({ userId: accountWebhooks.userId, url: accountWebhooks.url });
  if (!endpoint) return;
  const [owner] = await tx
    .select({ email: userProfiles.email, fullName: userProfiles.fullName, language: userProfiles.language })
    .from(userProfiles)
    .where(eq(userProfiles.id, endpoint.userId));
  if (!owner) return;
  await enqueueMail(tx, deps.config, {
    kind: 'webhook_disabled',
    to: owner.email,
    userId: endpoint.userId,
    language: owner.language,
    params: {
      name: owner.fullName ?? owner.email,
      url: endpoint.url,
      reason,
      link: appLink(deps.config, '/account', { section: 'webhooks' }),
    },
  });
}

/**
 * Deletes finished deliveries older than DELIVERY_RETENTION_MS, a batch at a time (the job comes back), so
 * the table holds a month of logs whatever the traffic. Pending ones are never deleted.
 */
export async function pruneOldDeliveries(deps: AppDeps): Promise<number> {
  const before = new Date(deps.now().getTime() - DELIVERY_RETENTION_MS);
  const old = deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.createdAt, before)))
    .limit(PRUNE_BATCH);
  const gone = await deps.db
    .delete(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, old))
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}
