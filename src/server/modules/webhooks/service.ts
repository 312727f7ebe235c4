import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  type TAccountEventType,
  TEST_EVENT_TYPE,
  type TWebhook,
  type TWebhookCreate,
  type TWebhookCreated,
  type TWebhookDelivery,
  WEBHOOK_LOG_LIMIT,
} from '#shared/contract/webhooks.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import {
  accountWebhooks,
  accountWebhookSecrets,
  userProfiles,
  userWorkflows,
  webhookDeliveries,
} from '#server/db/schema.js';
import { ts } from '#server/db/sql-helpers.js';
import { iso } from '#server/lib/dates.js';
import { AppError, badRequest, notFound } from '#server/lib/errors.js';
import { AddressRefused, resolveWebhookTarget } from '#server/providers/webhooks/address-guard.js';
import type { AppDeps } from '#server/types.js';
import { getSetting } from '../settings/service.js';
import { newWebhookSecret } from '../workflows/service.js';

/** After a rotation the previous secret keeps signing beside the new one this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;
/** A delivery is retried (with backoff) until this long after it was queued, or redelivered. */
const RETRY_WINDOW_MS = 24 * 60 * 60_000;

type WebhookRow = typeof accountWebhooks.$inferSelect;

function toWebhook(row: WebhookRow, now: Date): TWebhook {
  const until = row.previousSecretExpiresAt;
  return {
    id: row.id,
    url: row.url,
    events: row.events as TWebhook['events'],
    workflowIds: row.workflowIds,
    previousSecretExpiresAt: until && until > now ? iso(until) : null,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt ? iso(row.disabledAt) : null,
    createdAt: iso(row.createdAt),
  };
}

/**
 * The checks an address meets before it is stored: https unless private addresses are allowed (a
 * development or test deployment), and the workflow webhooks' address guard, so a private or loopback
 * address is refused now rather than at every delivery (each attempt checks again: a name may resolve
 * elsewhere later). A name that cannot be resolved now is kept; its deliveries fail and are logged.
 */
export async function checkWebhookUrl(deps: Pick<AppDeps, 'config'>, url: string): Promise<void> {
  const field = [{ field: 'url', message: 'not allowed' }];
  if (!deps.config.allowPrivateWebhooks && !url.startsWith('https:')) {
    throw badRequest('webhookUrlNotHttps', { fields: field });
  }
  try {
    await resolveWebhookTarget(url, { allowPrivate: deps.config.allowPrivateWebhooks });
  } catch (err) {
    if (err instanceof AddressRefused) {
      throw badRequest({ key: 'webhookAddressRefused', params: { reason: err.message } }, { fields: field });
    }
  }
}

/** The workflow ids among `ids` that do not exist. */
async function unknownWorkflows(db: DbOrTx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: userWorkflows.id })
    .from(userWorkflows)
    .where(inArray(userWorkflows.id, ids));
  const known = new Set(found.map((w) => w.id));
  return ids.filter((id) => !known.has(id));
}

export async function createWebhook(
  deps: AppDeps,
  userId: string,
  input: TWebhookCreate,
): Promise<TWebhookCreated> {
  await checkWebhookUrl(deps, input.url);
  const workflowIds = [...new Set(input.workflowIds ?? [])];
  const missing = await unknownWorkflows(deps.db, workflowIds);
  if (missing.length > 0) {
    throw badRequest(
      { key: 'webhookUnknownWorkflows', params: { ids: missing.join(', ') } },
      { fields: [{ field: 'workflowIds', message: 'unknown workflow' }] },
    );
  }
  const max = await getSetting(deps.db, 'webhooks_per_account');
  const secret = newWebhookSecret();
  const id = await deps.db.transaction(async (tx) => {
    // The profile row is locked so that concurrent creations count each other's endpoints.
    await tx
      .select({ id: userProfiles.id })
      .from(userProfiles)
      .where(eq(userProfiles.id, userId))
      .for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(accountWebhooks)
      .where(eq(accountWebhooks.userId, userId));
    if ((held?.n ?? 0) >= max) throw new AppError('CONFLICT', { key: 'tooManyWebhooks', params: { max } });
    const [row] = await tx
      .insert(accountWebhooks)
      .values({
        userId,
        url: input.url,
        events: [...new Set(input.events)],
        workflowIds: workflowIds.length > 0 ? workflowIds : null,
        secret,
        createdAt: deps.now(),
      })
      .returning({ id: accountWebhooks.id });
    return row!.id;
  });
  return { id, secret };
}

export async function listWebhooks(deps: AppDeps, userId: string): Promise<TWebhook[]> {
  const rows = await deps.db
    .select()
    .from(accountWebhooks)
    .where(eq(accountWebhooks.userId, userId))
    .orderBy(asc(accountWebhooks.createdAt), asc(accountWebhooks.id));
  const now = deps.now();
  return rows.map((row) => toWebhook(row, now));
}

const ownWebhook = (userId: string, id: string) =>
  and(eq(accountWebhooks.id, id), eq(accountWebhooks.userId, userId));

/** Deletes one of the person's endpoints with its deliveries; someone else's is "not found". */
export async function deleteWebhook(db: Db, userId: string, id: string): Promise<void> {
  const gone = await db
    .delete(accountWebhooks)
    .where(ownWebhook(userId, id))
    .returning({ id: accountWebhooks.id });
  if (gone.length === 0) throw notFound('webhook');
}

/**
 * A new secret for the endpoint, answered once; the current one becomes the previous one and keeps signing
 * beside it for ROTATION_OVERLAP_MS, so the receiver can switch without losing a delivery.
 */
export async function rotateWebhookSecret(
  deps: AppDeps,
  userId: string,
  id: string,
): Promise<TWebhookCreated> {
  const secret = newWebhookSecret();
  const now = deps.now();
  const [row] = await deps.db
    .update(accountWebhooks)
    .set({
      secret,
      previousSecret: accountWebhooks.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    })
    .where(ownWebhook(userId, id))
    .returning({ id: accountWebhooks.id });
  if (!row) throw notFound('webhook');
  return { id: row.id, secret };
}

/** Turns a disabled endpoint back on; its failures count afresh. */
export async function enableWebhook(deps: AppDeps, userId: string, id: string): Promise<TWebhook> {
  const [row] = await deps.db
    .update(accountWebhooks)
    .set({ disabledAt: null, disabledReason: null, failingSince: null })
    .where(ownWebhook(userId, id))
    .returning();
  if (!row) throw notFound('webhook');
  return toWebhook(row, deps.now());
}

async function ownWebhookRow(db: DbOrTx, userId: string, id: string): Promise<WebhookRow> {
  const [row] = await db.select().from(accountWebhooks).where(ownWebhook(userId, id));
  if (!row) throw notFound('webhook');
  return row;
}

/** Queues a `webhook.test` delivery to the endpoint (disabled or not: a test is how one checks it works). */
export async function queueTestEvent(
  deps: AppDeps,
  userId: string,
  id: string,
): Promise<{ deliveryId: string }> {
  await ownWebhookRow(deps.db, userId, id);
  const now = deps.now();
  const [row] = await deps.db
    .insert(webhookDeliveries)
    .values({
      userId,
      endpointId: id,
      eventType: TEST_EVENT_TYPE,
      data: { webhookId: id },
      nextAttemptAt: now,
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
      createdAt: now,
    })
    .returning({ id: webhookDeliveries.id });
  return { deliveryId: row!.id };
}

function toDelivery(row: typeof webhookDeliveries.$inferSelect): TWebhookDelivery {
  return {
    id: row.id,
    event: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.lastStatus,
    latencyMs: row.lastLatencyMs,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' && row.nextAttemptAt ? iso(row.nextAttemptAt) : null,
    lastAttemptAt: row.lastAttemptAt ? iso(row.lastAttemptAt) : null,
    deliveredAt: row.deliveredAt ? iso(row.deliveredAt) : null,
    createdAt: iso(row.createdAt),
  };
}

/** The endpoint's latest deliveries, newest first. */
export async function listDeliveries(db: Db, userId: string, id: string): Promise<TWebhookDelivery[]> {
  await ownWebhookRow(db, userId, id);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(WEBHOOK_LOG_LIMIT);
  return rows.map(toDelivery);
}

/**
 * Sends a delivery again, with the same id and body (a receiver that handled it drops the repeat): due now,
 * with a new retry window. One in flight keeps its attempt; the redelivery follows it.
 */
export async function redeliver(
  deps: AppDeps,
  userId: string,
  id: string,
  deliveryId: string,
): Promise<{ deliveryId: string }> {
  const now = deps.now();
  const [row] = await deps.db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      nextAttemptAt: sql`greatest(coalesce(${webhookDeliveries.nextAttemptAt}, ${ts(now)}), ${ts(now)})`,
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
      deliveredAt: null,
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, id),
        eq(webhookDeliveries.userId, userId),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (!row) throw notFound('webhookDelivery');
  return { deliveryId: row.id };
}

/** An account event other than a run's ending, as its emitter describes it. */
export interface AccountEvent {
  userId: string;
  type: Exclude<TAccountEventType, `run.${string}`>;
  /** The event's `data` as the receiver reads it (camelCase, as the public API). */
  data: Record<string, unknown>;
  /** The workflow it concerns, if any: an endpoint limited to some workflows gets only theirs. */
  workflowId?: string | null;
}

/**
 * Queues an account event (`schedule.skipped`, `credits.low`) for every enabled endpoint of the account that
 * takes it. Call it inside the transaction of the change that causes the event: the deliveries exist exactly
 * when the change does, and the delivery job sends them from any instance.
 */
export async function queueAccountEvent(tx: DbOrTx, now: Date, event: AccountEvent): Promise<void> {
  await insertEndpointDeliveries(tx, now, {
    userId: event.userId,
    type: event.type,
    workflowId: event.workflowId ?? null,
    runId: null,
    data: event.data,
  });
}

/** The run events, by the status a run ends with. */
const RUN_EVENT = {
  completed: 'run.completed',
  failed: 'run.failed',
  expired: 'run.expired',
} as const;

/**
 * Queues a run's ending for the account's endpoints that take it and for the run's own ad hoc address, in
 * the transaction that ends the run (settle.ts): exactly one set of deliveries per ending. The body is
 * written at the first attempt from the run as it ended.
 */
export async function queueRunEnded(
  tx: DbOrTx,
  now: Date,
  run: {
    id: string;
    userId: string;
    workflowId: string;
    status: keyof typeof RUN_EVENT;
    notifyUrl: string | null;
  },
): Promise<void> {
  const type = RUN_EVENT[run.status];
  await insertEndpointDeliveries(tx, now, {
    userId: run.userId,
    type,
    workflowId: run.workflowId,
    runId: run.id,
    data: null,
  });
  if (run.notifyUrl) {
    await tx.insert(webhookDeliveries).values({
      userId: run.userId,
      url: run.notifyUrl,
      eventType: type,
      runId: run.id,
      nextAttemptAt: now,
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
      createdAt: now,
    });
  }
}

/** One statement: a delivery for each enabled endpoint of the account that takes the event. */
async function insertEndpointDeliveries(
  tx: DbOrTx,
  now: Date,
  e: { userId: string; type: string; workflowId: string | null; runId: string | null; data: unknown },
): Promise<void> {
  const w = accountWebhooks;
  const d = webhookDeliveries;
  const retryUntil = new Date(now.getTime() + RETRY_WINDOW_MS);
  await tx.execute(sql`
    insert into ${d} (${sql.identifier(d.userId.name)}, ${sql.identifier(d.endpointId.name)},
      ${sql.identifier(d.eventType.name)}, ${sql.identifier(d.runId.name)}, ${sql.identifier(d.data.name)},
      ${sql.identifier(d.nextAttemptAt.name)}, ${sql.identifier(d.retryUntil.name)}, ${sql.identifier(d.createdAt.name)})
    select ${w.userId}, ${w.id}, ${e.type}, ${e.runId}::uuid, ${e.data === null ? null : JSON.stringify(e.data)}::jsonb,
      ${ts(now)}, ${ts(retryUntil)}, ${ts(now)}
    from ${w}
    where ${w.userId} = ${e.userId} and ${w.disabledAt} is null and ${e.type} = any(${w.events})
      and (${w.workflowIds} is null or ${e.workflowId}::uuid is null or ${e.workflowId}::uuid = any(${w.workflowIds}))`);
}

/**
 * The account's secret for the ad hoc deliveries of its runs, made on first use. `created` says whether this
 * call made it: only then is it shown (the run's answer carries it once; a rotation shows a new one).
 */
export async function ensureAccountWebhookSecret(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<{ secret: string; created: boolean }> {
  const [made] = await db
    .insert(accountWebhookSecrets)
    .values({ userId, secret: newWebhookSecret(), createdAt: now })
    .onConflictDoNothing()
    .returning({ secret: accountWebhookSecrets.secret });
  if (made) return { secret: made.secret, created: true };
  const [row] = await db
    .select({ secret: accountWebhookSecrets.secret })
    .from(accountWebhookSecrets)
    .where(eq(accountWebhookSecrets.userId, userId));
  return { secret: row!.secret, created: false };
}

/** A new account secret for ad hoc deliveries (made if there was none); the old one signs beside it for a day. */
export async function rotateAccountWebhookSecret(deps: AppDeps, userId: string): Promise<{ secret: string }> {
  const now = deps.now();
  const made = await ensureAccountWebhookSecret(deps.db, userId, now);
  if (made.created) return { secret: made.secret };
  const secret = newWebhookSecret();
  await deps.db
    .update(accountWebhookSecrets)
    .set({
      secret,
      previousSecret: accountWebhookSecrets.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    })
    .where(eq(accountWebhookSecrets.userId, userId));
  return { secret };
}
