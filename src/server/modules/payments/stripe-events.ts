import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PLANS, type TPlan } from '#shared/contract/plans.js';
import type { Tx } from '#server/db/client.js';
import { paymentEvents, subscriptions, userProfiles } from '#server/db/schema.js';
import type { AppDeps } from '#server/types.js';
import { grantPlanCredits, nextBillingDate, openSubscription, subscriptionPlan } from '../credits/service.js';

type Metadata = Stripe.Metadata | null | undefined;

/** The buyer and plan our checkout wrote into the metadata; null when the event is not one of ours. */
function purchaseFrom(metadata: Metadata): { userId: string; plan: TPlan } | null {
  const plan = PLANS.find((p) => p.type === metadata?.planType && p.id === metadata?.planId);
  const userId = metadata?.userId;
  return plan && userId ? { userId, plan } : null;
}

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id);

async function userExists(tx: Tx, userId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return false;
  const [row] = await tx
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  return row !== undefined;
}

async function findByProviderId(tx: Tx, providerSubscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row ?? null;
}

/** A paid checkout: a pack's credits, or a new subscription with its first month. */
async function onCheckoutCompleted(tx: Tx, deps: AppDeps, session: Stripe.Checkout.Session): Promise<void> {
  const bought = purchaseFrom(session.metadata);
  if (!bought || !(await userExists(tx, bought.userId))) return;
  if (session.mode === 'payment') {
    if (session.payment_status !== 'paid') return;
    await grantPlanCredits(tx, {
      userId: bought.userId,
      plan: bought.plan,
      reference: `stripe:checkout:${session.id}`,
      notes: `${bought.plan.name} credit pack`,
    });
    return;
  }
  const subscriptionId = idOf(session.subscription);
  if (session.mode !== 'subscription' || !subscriptionId) return;
  if (!(await findByProviderId(tx, subscriptionId))) {
    await openSubscription(tx, {
      userId: bought.userId,
      plan: bought.plan,
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      now: deps.now(),
    });
  }
  await grantPlanCredits(tx, {
    userId: bought.userId,
    plan: bought.plan,
    reference: `stripe:subscription:${subscriptionId}:first`,
    notes: `${bought.plan.name} monthly plan: first month`,
  });
}

/** A renewal Stripe collected: the month's credits. The first invoice is covered by the checkout above. */
async function onInvoicePaid(tx: Tx, deps: AppDeps, invoice: Stripe.Invoice): Promise<void> {
  if (invoice.billing_reason !== 'subscription_cycle') return;
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!subscriptionId) return;
  let row = await findByProviderId(tx, subscriptionId);
  if (!row) {
    const bought = purchaseFrom(details?.metadata);
    if (!bought || !(await userExists(tx, bought.userId))) return;
    row = await openSubscription(tx, {
      userId: bought.userId,
      plan: bought.plan,
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      now: deps.now(),
    });
  }
  const result = await grantPlanCredits(tx, {
    userId: row.userId,
    plan: subscriptionPlan(row),
    reference: `stripe:invoice:${invoice.id}`,
    notes: `${row.planName} monthly plan renewal`,
  });
  if (result.granted) {
    await tx
      .update(subscriptions)
      .set({
        status: 'active',
        nextRenewalDate: nextBillingDate(row.nextRenewalDate, row.createdAt.getUTCDate()),
        updatedAt: deps.now(),
      })
      .where(eq(subscriptions.id, row.id));
  }
}

async function onSubscriptionDeleted(
  tx: Tx,
  deps: AppDeps,
  subscription: Stripe.Subscription,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ status: 'cancelled', updatedAt: deps.now() })
    .where(eq(subscriptions.providerSubscriptionId, subscription.id));
}

/**
 * Applies a verified Stripe event once: its id goes into payment_events in the same transaction as the
 * credits, so a redelivered event (Stripe retries) finds it there and changes nothing.
 */
export async function applyStripeEvent(deps: AppDeps, event: Stripe.Event): Promise<{ duplicate: boolean }> {
  return deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (fresh.length === 0) return { duplicate: true };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        await onCheckoutCompleted(tx, deps, event.data.object);
        break;
      case 'invoice.paid':
        await onInvoicePaid(tx, deps, event.data.object);
        break;
      case 'customer.subscription.deleted':
        await onSubscriptionDeleted(tx, deps, event.data.object);
        break;
      default:
        // Other events are acknowledged so Stripe stops sending them.
        break;
    }
    return { duplicate: false };
  });
}
