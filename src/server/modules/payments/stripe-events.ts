import { eq, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PLANS, type TPlan } from '#shared/contract/plans.js';
import type { Tx } from '#server/db/client.js';
import {
  adminAuditLogs,
  paymentEvents,
  stripePayments,
  subscriptions,
  userProfiles,
} from '#server/db/schema.js';
import type { AppDeps } from '#server/types.js';
import {
  applyLedgerEntry,
  grantPlanCredits,
  nextBillingDate,
  openSubscription,
  type PlanGrant,
  subscriptionPlan,
} from '../credits/service.js';

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
    await grantPaid(
      tx,
      deps,
      { ...bought, reference: `stripe:checkout:${session.id}`, note: 'credit_pack' },
      { paymentIntentId: idOf(session.payment_intent), invoiceId: undefined },
    );
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
  await grantPaid(
    tx,
    deps,
    { ...bought, reference: `stripe:subscription:${subscriptionId}:first`, note: 'monthly_plan_first_month' },
    { paymentIntentId: undefined, invoiceId: idOf(session.invoice) },
  );
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
  const granted = await grantPaid(
    tx,
    deps,
    {
      userId: row.userId,
      plan: subscriptionPlan(row),
      reference: `stripe:invoice:${invoice.id}`,
      note: 'monthly_plan_renewal',
    },
    { paymentIntentId: invoicePaymentIntent(invoice), invoiceId: invoice.id },
  );
  if (granted) {
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

/** How Stripe names a payment: what a refund or a dispute of it will point at. */
interface PaymentRef {
  paymentIntentId: string | undefined;
  invoiceId: string | undefined;
}

/**
 * Grants what a payment bought and remembers what it granted, so a later refund or dispute of it can take the
 * credits back. False when the grant's reference was already granted (a redelivered or overlapping event).
 */
async function grantPaid(tx: Tx, deps: AppDeps, grant: PlanGrant, paid: PaymentRef): Promise<boolean> {
  const result = await grantPlanCredits(tx, grant, deps.metrics);
  if (!result.granted) return false;
  if (paid.paymentIntentId || paid.invoiceId) {
    await tx
      .insert(stripePayments)
      .values({
        userId: grant.userId,
        planName: grant.plan.name,
        credits: result.creditsGranted,
        paymentIntentId: paid.paymentIntentId ?? null,
        invoiceId: paid.invoiceId ?? null,
      })
      .onConflictDoNothing();
  }
  return true;
}

/** An invoice's payment intent: in its payments list (API 2025 and later) or on the invoice itself (before). */
function invoicePaymentIntent(invoice: Stripe.Invoice): string | undefined {
  for (const payment of invoice.payments?.data ?? []) {
    const intent = idOf(payment.payment?.payment_intent);
    if (intent) return intent;
  }
  return idOf((invoice as { payment_intent?: string | { id: string } | null }).payment_intent);
}

type Reversal = 'payment_refunded' | 'payment_disputed';

/**
 * Takes back what a refunded or disputed payment granted: up to `wanted` credits in all (a partial refund
 * wants its share), less what earlier events took. The balance never goes below zero: what it cannot cover
 * is kept on the payment and in the audit log for an admin to settle with the person. The user's history shows
 * the row (even one of 0 credits) in their language.
 */
async function reversePayment(
  tx: Tx,
  deps: AppDeps,
  eventId: string,
  kind: Reversal,
  ref: PaymentRef,
  wanted: (credits: number) => number,
): Promise<void> {
  const matches = [
    ref.paymentIntentId ? eq(stripePayments.paymentIntentId, ref.paymentIntentId) : undefined,
    ref.invoiceId ? eq(stripePayments.invoiceId, ref.invoiceId) : undefined,
  ].filter((m) => m !== undefined);
  if (matches.length === 0) return;
  const [payment] = await tx
    .select()
    .from(stripePayments)
    .where(or(...matches))
    .limit(1)
    .for('update');
  if (!payment) return;
  const due = Math.min(payment.credits, Math.max(0, wanted(payment.credits))) - payment.creditsReversed;
  if (due <= 0) return;
  const [profile] = await tx
    .select({ credits: userProfiles.credits })
    .from(userProfiles)
    .where(eq(userProfiles.id, payment.userId))
    .for('update');
  if (!profile) return;
  const taken = Math.min(due, profile.credits);
  const applied = await applyLedgerEntry(
    tx,
    {
      userId: payment.userId,
      amount: -taken,
      type: 'purchase',
      planName: payment.planName,
      noteKind: kind,
      noteParams: { plan: payment.planName },
      reference: `stripe:${kind}:${eventId}`,
    },
    deps.metrics,
  );
  if (applied === null) throw new Error(`ledger refused a reversal for ${payment.userId}`);
  await tx
    .update(stripePayments)
    .set({
      creditsReversed: sql`${stripePayments.creditsReversed} + ${due}`,
      creditsUnrecovered: sql`${stripePayments.creditsUnrecovered} + ${due - taken}`,
    })
    .where(eq(stripePayments.id, payment.id));
  // No admin acted: the row has no admin, and says what Stripe reported and what could not be taken back.
  await tx.insert(adminAuditLogs).values({
    adminUserId: null,
    actionType: 'payment_reversed',
    targetType: 'user',
    targetId: payment.userId,
    details: {
      reason: kind === 'payment_refunded' ? 'refund' : 'dispute',
      stripeEvent: eventId,
      paymentIntent: payment.paymentIntentId,
      invoice: payment.invoiceId,
      plan: payment.planName,
      creditsGranted: payment.credits,
      creditsToTakeBack: due,
      creditsTakenBack: taken,
      creditsUnrecovered: due - taken,
      balanceAfter: applied,
    },
  });
}

/** A refund, full or partial: the refunded share of the credits (rounded down, in the buyer's favour). */
async function onChargeRefunded(
  tx: Tx,
  deps: AppDeps,
  eventId: string,
  charge: Stripe.Charge,
): Promise<void> {
  await reversePayment(
    tx,
    deps,
    eventId,
    'payment_refunded',
    {
      paymentIntentId: idOf(charge.payment_intent),
      invoiceId: idOf((charge as { invoice?: string | { id: string } | null }).invoice),
    },
    (credits) =>
      charge.refunded || charge.amount <= 0
        ? credits
        : Math.floor((credits * charge.amount_refunded) / charge.amount),
  );
}

/** A dispute holds the whole payment until it is decided: every credit it granted is taken back. */
async function onDisputeCreated(
  tx: Tx,
  deps: AppDeps,
  eventId: string,
  dispute: Stripe.Dispute,
): Promise<void> {
  await reversePayment(
    tx,
    deps,
    eventId,
    'payment_disputed',
    { paymentIntentId: idOf(dispute.payment_intent), invoiceId: undefined },
    (credits) => credits,
  );
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
      case 'charge.refunded':
        await onChargeRefunded(tx, deps, event.id, event.data.object);
        break;
      case 'charge.dispute.created':
        await onDisputeCreated(tx, deps, event.id, event.data.object);
        break;
      default:
        // Other events are acknowledged so Stripe stops sending them.
        break;
    }
    return { duplicate: false };
  });
}
