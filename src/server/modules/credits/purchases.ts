import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TPurchaseRequest, TPurchaseResponse } from '#shared/contract/credits.js';
import { ZPurchaseResponse } from '#shared/contract/credits.js';
import { findPlan, type TPlan } from '#shared/contract/plans.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { idempotencyKeys, userProfiles } from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import { paymentProvider } from '#server/providers/payments/index.js';
import type { AppDeps } from '#server/types.js';
import { grantPlanCredits, PURCHASE_NOTE } from './grants.js';
import {
  findActiveSubscription,
  hasPendingPlanPayment,
  openSubscription,
  periodReference,
} from './subscriptions.js';

export interface Buyer {
  id: string;
  email: string;
}

/** The catalogue plan a request names; anything that differs from it (credits, price) is refused. */
function resolvePlan(request: TPurchaseRequest): TPlan {
  const plan = findPlan(request.type, request.planName);
  if (!plan) {
    throw new AppError(
      'VALIDATION_ERROR',
      { key: 'unknownPlan', params: { type: request.type, planName: request.planName } },
      {
        fields: [{ field: 'planName', message: 'unknown plan' }],
      },
    );
  }
  const mismatched = [
    ...(request.credits !== plan.credits ? ['credits'] : []),
    ...(Math.abs(request.usdAmount - plan.priceUsd) >= 0.005 ? ['usdAmount'] : []),
  ];
  if (mismatched.length > 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      { key: 'planMismatch', params: { plan: plan.name, credits: plan.credits, price: plan.priceUsd } },
      {
        fields: mismatched.map((field) => ({ field, message: 'does not match the plan' })),
      },
    );
  }
  return plan;
}

/** What a key is bound to: the plan bought, not the spelling of its name. */
const requestHash = (plan: TPlan) =>
  createHash('sha256').update(`${plan.type}|${plan.id}|${plan.credits}|${plan.priceUsd}`).digest('hex');

type StoredAnswer = { requestHash: string; response: unknown };

async function storedAnswer(deps: AppDeps, userId: string, key: string): Promise<StoredAnswer | null> {
  const [row] = await deps.db
    .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row ?? null;
}

function replay(stored: StoredAnswer, hash: string): TPurchaseResponse {
  if (stored.requestHash !== hash) {
    throw new AppError('CONFLICT', 'idempotencyKeyReused');
  }
  return ZPurchaseResponse.parse(stored.response);
}

/**
 * Claims the key inside the transaction. On PostgreSQL a concurrent request with the same key waits on the
 * primary key until this transaction ends, then finds the key taken: a double click grants once.
 */
async function claimKey(tx: Tx, userId: string, key: string, hash: string): Promise<boolean> {
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash: hash, statusCode: 0, response: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

async function saveAnswer(tx: Tx, userId: string, key: string, answer: TPurchaseResponse): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ statusCode: 200, response: answer })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/**
 * One monthly plan at a time, counting one whose delayed payment is still on its way; checked early, and again
 * under the user's row lock before a plan opens.
 */
async function ensureNoActivePlan(db: DbOrTx, userId: string, plan: TPlan): Promise<void> {
  if (plan.type !== 'monthly') return;
  if (await findActiveSubscription(db, userId)) throw new AppError('CONFLICT', 'activePlan');
  if (await hasPendingPlanPayment(db, userId)) throw new AppError('CONFLICT', 'planPaymentPending');
}

/** Demo mode: the payment is settled at once, so the credits (and a monthly plan's row) are granted now. */
async function grantNow(
  deps: AppDeps,
  buyer: Buyer,
  plan: TPlan,
  key: string | undefined,
  hash: string,
): Promise<TPurchaseResponse | 'replay'> {
  return deps.db.transaction(async (tx) => {
    if (key && !(await claimKey(tx, buyer.id, key, hash))) return 'replay';
    let reference: string | null = null;
    if (plan.type === 'monthly') {
      // Serialise this user's plan purchases, so two concurrent ones cannot both open a plan.
      await tx
        .select({ id: userProfiles.id })
        .from(userProfiles)
        .where(eq(userProfiles.id, buyer.id))
        .for('update');
      await ensureNoActivePlan(tx, buyer.id, plan);
      const now = deps.now();
      const subscription = await openSubscription(tx, {
        userId: buyer.id,
        plan,
        provider: 'demo',
        providerSubscriptionId: null,
        now,
      });
      reference = periodReference(subscription.id, now);
    }
    const result = await grantPlanCredits(
      tx,
      {
        userId: buyer.id,
        plan,
        reference,
        note: PURCHASE_NOTE[plan.type],
      },
      deps,
    );
    const answer: TPurchaseResponse = {
      status: 'completed',
      provider: 'demo',
      planName: plan.name,
      type: plan.type,
      creditsGranted: result.creditsGranted,
      balance: result.balance ?? 0,
    };
    if (key) await saveAnswer(tx, buyer.id, key, answer);
    return answer;
  });
}

/** Stripe: the answer is the checkout URL; a repeat gets the same one (Stripe keys its session on ours too). */
async function storeCheckout(
  deps: AppDeps,
  buyer: Buyer,
  checkoutUrl: string,
  key: string | undefined,
  hash: string,
): Promise<TPurchaseResponse | 'replay'> {
  const answer: TPurchaseResponse = { status: 'checkout', provider: 'stripe', checkoutUrl };
  if (!key) return answer;
  return deps.db.transaction(async (tx) => {
    if (!(await claimKey(tx, buyer.id, key, hash))) return 'replay';
    await saveAnswer(tx, buyer.id, key, answer);
    return answer;
  });
}

/**
 * POST /api/credits/purchase. The plan must match the catalogue; with an Idempotency-Key, a repeat (even a
 * concurrent one) answers what the first request answered and grants nothing more, and the same key with a
 * different purchase is 409.
 */
export async function purchase(
  deps: AppDeps,
  buyer: Buyer,
  request: TPurchaseRequest,
  key: string | undefined,
): Promise<TPurchaseResponse> {
  const plan = resolvePlan(request);
  const hash = requestHash(plan);
  if (key) {
    const stored = await storedAnswer(deps, buyer.id, key);
    if (stored) return replay(stored, hash);
  }
  try {
    await ensureNoActivePlan(deps.db, buyer.id, plan);
  } catch (err) {
    // A double click whose twin has just opened the plan: it gets the twin's answer, not a conflict.
    const stored = key ? await storedAnswer(deps, buyer.id, key) : null;
    if (stored) return replay(stored, hash);
    throw err;
  }
  const checkout = await paymentProvider(deps.config).startCheckout({
    userId: buyer.id,
    email: buyer.email,
    plan,
    idempotencyKey: key,
  });
  const answer =
    checkout.kind === 'grant'
      ? await grantNow(deps, buyer, plan, key, hash)
      : await storeCheckout(deps, buyer, checkout.url, key, hash);
  if (answer !== 'replay') return answer;
  const stored = key ? await storedAnswer(deps, buyer.id, key) : null;
  if (!stored) throw new AppError('CONFLICT', 'idempotencyKeyInProgress');
  return replay(stored, hash);
}
