import { and, asc, eq, like, lte } from 'drizzle-orm';
import type { TSubscription } from '#shared/contract/credits.js';
import { findPlan, planBonusCredits, type TPlan } from '#shared/contract/plans.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { stripePayments, subscriptions } from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import { paymentProvider } from '#server/providers/payments/index.js';
import type { AppDeps } from '#server/types.js';
import { grantPlanCredits } from './grants.js';

type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * The renewal after `from`, on the subscription's anchor day of the month (clamped to short months), so a
 * plan bought on the 31st renews on Feb 28 and then on Mar 31 instead of drifting.
 */
export function nextBillingDate(from: Date, anchorDay: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + 1;
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = new Date(from);
  next.setUTCDate(1);
  next.setUTCFullYear(year, month, Math.min(anchorDay, daysInMonth));
  return next;
}

/** The ledger reference of one paid month: the same month can never be granted twice. */
export const periodReference = (subscriptionId: string, periodStart: Date) =>
  `renewal:${subscriptionId}:${periodStart.toISOString().slice(0, 10)}`;

const STRIPE_FIRST_MONTH = 'stripe:subscription:';

/** The ledger reference of a Stripe subscription's first month, whichever event reports it paid. */
export const stripeFirstMonthReference = (providerSubscriptionId: string) =>
  `${STRIPE_FIRST_MONTH}${providerSubscriptionId}:first`;

/** Whether a monthly plan bought through Stripe waits for a delayed payment (its plan opens once paid). */
export async function hasPendingPlanPayment(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: stripePayments.id })
    .from(stripePayments)
    .where(
      and(
        eq(stripePayments.userId, userId),
        eq(stripePayments.status, 'pending'),
        like(stripePayments.reference, `${STRIPE_FIRST_MONTH}%`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The plan a subscription renews: its stored credits and price, with the catalogue's bonus percentage. */
export function subscriptionPlan(row: SubscriptionRow): TPlan {
  const catalogue = findPlan('monthly', row.planName);
  return {
    id: catalogue?.id ?? row.planName.toLowerCase(),
    type: 'monthly',
    name: row.planName,
    credits: row.creditsPerMonth,
    priceUsd: Number(row.priceUsd),
    discountPercent: 0,
    bonusPercent: catalogue?.bonusPercent ?? 0,
    highlighted: false,
    benefits: catalogue?.benefits ?? [],
  };
}

export function toSubscriptionView(row: SubscriptionRow): TSubscription {
  return {
    id: row.id,
    planName: row.planName,
    creditsPerMonth: row.creditsPerMonth,
    bonusCredits: planBonusCredits(subscriptionPlan(row)),
    priceUsd: row.priceUsd,
    nextRenewalDate: row.nextRenewalDate.toISOString(),
    status: row.status,
    provider: row.provider === 'stripe' ? 'stripe' : 'demo',
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findActiveSubscription(db: DbOrTx, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .orderBy(asc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

/** Opens a monthly plan that starts now; the caller grants its first month in the same transaction. */
export async function openSubscription(
  tx: Tx,
  input: {
    userId: string;
    plan: TPlan;
    provider: 'demo' | 'stripe';
    providerSubscriptionId: string | null;
    now: Date;
  },
): Promise<SubscriptionRow> {
  const [row] = await tx
    .insert(subscriptions)
    .values({
      userId: input.userId,
      planName: input.plan.name,
      creditsPerMonth: input.plan.credits,
      priceUsd: input.plan.priceUsd.toFixed(2),
      nextRenewalDate: nextBillingDate(input.now, input.now.getUTCDate()),
      status: 'active',
      provider: input.provider,
      providerSubscriptionId: input.providerSubscriptionId,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  if (!row) throw new Error('subscription insert returned nothing');
  return row;
}

/** Cancels the user's active plan: no further renewals; every credit granted so far stays. */
export async function cancelActiveSubscription(deps: AppDeps, userId: string): Promise<TSubscription> {
  const active = await findActiveSubscription(deps.db, userId);
  if (!active) throw new AppError('NOT_FOUND', 'noActivePlan');
  if (active.provider === 'stripe') {
    await paymentProvider(deps.config).cancelSubscription(active.providerSubscriptionId);
  }
  const [row] = await deps.db
    .update(subscriptions)
    .set({ status: 'cancelled', updatedAt: deps.now() })
    .where(and(eq(subscriptions.id, active.id), eq(subscriptions.status, 'active')))
    .returning();
  // Cancelled meanwhile by a concurrent request: the answer is the same.
  return toSubscriptionView(row ?? { ...active, status: 'cancelled' });
}

const RENEWAL_BATCH = 50;

/**
 * Grants every demo subscription month that has come due (Stripe renews its own subscriptions and tells us
 * through `invoice.paid`). Each due row is claimed with FOR UPDATE SKIP LOCKED, so several instances share
 * the work without waiting on each other; the period's unique ledger reference makes a month happen once
 * even if two claims ever overlapped. A server that was down catches up one month per pass.
 * Returns how many months were granted.
 */
export async function renewDueSubscriptions(deps: AppDeps): Promise<number> {
  let renewed = 0;
  for (;;) {
    const now = deps.now();
    const count = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.status, 'active'),
            eq(subscriptions.provider, 'demo'),
            lte(subscriptions.nextRenewalDate, now),
          ),
        )
        .orderBy(asc(subscriptions.nextRenewalDate))
        .limit(RENEWAL_BATCH)
        .for('update', { skipLocked: true });
      for (const row of due) {
        const result = await grantPlanCredits(
          tx,
          {
            userId: row.userId,
            plan: subscriptionPlan(row),
            reference: periodReference(row.id, row.nextRenewalDate),
            note: 'monthly_plan_renewal',
          },
          deps,
        );
        if (result.granted) renewed += 1;
        await tx
          .update(subscriptions)
          .set({
            nextRenewalDate: nextBillingDate(row.nextRenewalDate, row.createdAt.getUTCDate()),
            updatedAt: now,
          })
          .where(eq(subscriptions.id, row.id));
      }
      return due.length;
    });
    if (count < RENEWAL_BATCH) return renewed;
  }
}
