import { and, eq, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PLANS, type TPlan } from '#shared/contract/plans.js';
import type { Tx } from '#server/db/client.js';
import type { STRIPE_PAYMENT_STATUSES } from '#server/db/schema.js';
import {
  adminAuditLogs,
  creditTransactions,
  paymentEvents,
  stripePayments,
  subscriptions,
  userProfiles,
} from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import { paymentProvider } from '#server/providers/payments/index.js';
import type { AppDeps } from '#server/types.js';
import {
  applyLedgerEntry,
  grantPlanCredits,
  nextBillingDate,
  openSubscription,
  type PlanGrant,
  planGrantCredits,
  PURCHASE_NOTE,
  stripeFirstMonthReference,
  subscriptionPlan,
} from '../credits/service.js';

type Metadata = Stripe.Metadata | null | undefined;
type SubscriptionRow = typeof subscriptions.$inferSelect;
type StripePaymentRow = typeof stripePayments.$inferSelect;
type PaymentStatus = (typeof STRIPE_PAYMENT_STATUSES)[number];

/** The buyer and plan our checkout wrote into the metadata; null when the event is not one of ours. */
function purchaseFrom(metadata: Metadata): { userId: string; plan: TPlan } | null {
  const plan = PLANS.find((p) => p.type === metadata?.planType && p.id === metadata?.planId);
  const userId = metadata?.userId;
  return plan && userId ? { userId, plan } : null;
}

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id);

/**
 * Whether the buyer exists, locking their profile: this buyer's Stripe events then apply one after the other, so
 * two reports of one payment arriving together (a checkout and its invoice) cannot both open its plan.
 */
async function lockBuyer(tx: Tx, userId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return false;
  const [row] = await tx
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId))
    .for('update');
  return row !== undefined;
}

async function findByProviderId(tx: Tx, providerSubscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row ?? null;
}

/**
 * One period Stripe sells: a pack, a subscription's first month or one of its renewals. Its reference is the
 * same whichever event reports it (the first month: the checkout, its async outcome and its first invoice), so
 * it is granted once however Stripe orders or repeats them.
 */
interface Purchase extends PlanGrant {
  reference: string;
  /** The Stripe subscription the period belongs to; undefined for a pack. */
  subscriptionId: string | undefined;
}

/** How Stripe names a payment: what a refund or a dispute of it will point at. */
interface PaymentRef {
  paymentIntentId: string | undefined;
  invoiceId: string | undefined;
}

const isFirstMonth = (purchase: Purchase) => purchase.note === 'monthly_plan_first_month';

function firstMonth(buyer: { userId: string; plan: TPlan }, subscriptionId: string): Purchase {
  return {
    ...buyer,
    reference: stripeFirstMonthReference(subscriptionId),
    note: 'monthly_plan_first_month',
    subscriptionId,
  };
}

/** What a checkout sells; null when it is not one of ours. */
async function checkoutPurchase(tx: Tx, session: Stripe.Checkout.Session): Promise<Purchase | null> {
  const bought = purchaseFrom(session.metadata);
  if (!bought || !(await lockBuyer(tx, bought.userId))) return null;
  if (session.mode === 'payment') {
    return {
      ...bought,
      reference: `stripe:checkout:${session.id}`,
      note: PURCHASE_NOTE[bought.plan.type],
      subscriptionId: undefined,
    };
  }
  const subscriptionId = idOf(session.subscription);
  return session.mode === 'subscription' && subscriptionId ? firstMonth(bought, subscriptionId) : null;
}

/** What a subscription invoice bills: the first month or a renewal; null for other invoices. */
async function invoicePurchase(tx: Tx, invoice: Stripe.Invoice): Promise<Purchase | null> {
  const first = invoice.billing_reason === 'subscription_create';
  if (!first && invoice.billing_reason !== 'subscription_cycle') return null;
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!subscriptionId) return null;
  const row = await findByProviderId(tx, subscriptionId);
  const buyer = row ? { userId: row.userId, plan: subscriptionPlan(row) } : purchaseFrom(details?.metadata);
  if (!buyer || !(await lockBuyer(tx, buyer.userId))) return null;
  if (first) return firstMonth(buyer, subscriptionId);
  return {
    ...buyer,
    reference: `stripe:invoice:${invoice.id}`,
    note: 'monthly_plan_renewal',
    subscriptionId,
  };
}

/** An invoice's payment intent: in its payments list (API 2025 and later) or on the invoice itself (before). */
function invoicePaymentIntent(invoice: Stripe.Invoice): string | undefined {
  for (const payment of invoice.payments?.data ?? []) {
    const intent = idOf(payment.payment?.payment_intent);
    if (intent) return intent;
  }
  return idOf((invoice as { payment_intent?: string | { id: string } | null }).payment_intent);
}

const invoiceRef = (invoice: Stripe.Invoice): PaymentRef => ({
  paymentIntentId: invoicePaymentIntent(invoice),
  invoiceId: invoice.id,
});

/** Paid stays paid (a late report of an earlier failed attempt changes nothing); a failure is not pending again. */
const STATUS_RANK: Record<PaymentStatus, number> = { pending: 0, failed: 1, paid: 2 };

/**
 * Records what Stripe reported about a purchase on its one row, found by the grant's reference or by a payment
 * intent or invoice it already carries: the status moves forward only, and names Stripe gave (the first
 * invoice's payment intent, which only its invoice carries) are added, so a later refund or dispute finds it.
 */
async function recordPurchase(
  tx: Tx,
  purchase: Purchase,
  ref: PaymentRef,
  status: PaymentStatus,
): Promise<StripePaymentRow> {
  const matches = [
    eq(stripePayments.reference, purchase.reference),
    ref.paymentIntentId ? eq(stripePayments.paymentIntentId, ref.paymentIntentId) : undefined,
    ref.invoiceId ? eq(stripePayments.invoiceId, ref.invoiceId) : undefined,
  ].filter((m) => m !== undefined);
  const [existing] = await tx
    .select()
    .from(stripePayments)
    .where(or(...matches))
    .limit(1)
    .for('update');
  const [row] = existing
    ? await tx
        .update(stripePayments)
        .set({
          status: STATUS_RANK[status] > STATUS_RANK[existing.status] ? status : existing.status,
          reference: existing.reference ?? purchase.reference,
          paymentIntentId: existing.paymentIntentId ?? ref.paymentIntentId ?? null,
          invoiceId: existing.invoiceId ?? ref.invoiceId ?? null,
        })
        .where(eq(stripePayments.id, existing.id))
        .returning()
    : await tx
        .insert(stripePayments)
        .values({
          reference: purchase.reference,
          status,
          userId: purchase.userId,
          planName: purchase.plan.name,
          credits: planGrantCredits(purchase.plan),
          paymentIntentId: ref.paymentIntentId ?? null,
          invoiceId: ref.invoiceId ?? null,
        })
        .returning();
  if (!row) throw new Error(`stripe payment ${purchase.reference} was not recorded`);
  return row;
}

/** The local plan of the Stripe subscription a period belongs to, opened (active) by its first paid or free period. */
async function subscriptionOf(tx: Tx, deps: AppDeps, purchase: Purchase): Promise<SubscriptionRow | null> {
  if (!purchase.subscriptionId) return null;
  return (
    (await findByProviderId(tx, purchase.subscriptionId)) ??
    openSubscription(tx, {
      userId: purchase.userId,
      plan: purchase.plan,
      provider: 'stripe',
      providerSubscriptionId: purchase.subscriptionId,
      now: deps.now(),
    })
  );
}

/** A renewal period has begun: the plan is active and its next renewal a month on. */
async function renewed(tx: Tx, deps: AppDeps, row: SubscriptionRow): Promise<void> {
  await tx
    .update(subscriptions)
    .set({
      status: 'active',
      nextRenewalDate: nextBillingDate(row.nextRenewalDate, row.createdAt.getUTCDate()),
      updatedAt: deps.now(),
    })
    .where(eq(subscriptions.id, row.id));
}

/**
 * The one way Stripe money becomes credits: a period Stripe reports paid grants what its plan buys, once per
 * reference, opens a new subscription's plan, and is recorded so a later refund or dispute can take the credits
 * back. False when the reference was already granted (a redelivered or overlapping event).
 */
async function grantPaid(tx: Tx, deps: AppDeps, purchase: Purchase, paid: PaymentRef): Promise<boolean> {
  const subscription = await subscriptionOf(tx, deps, purchase);
  const result = await grantPlanCredits(tx, purchase, deps);
  await recordPurchase(tx, purchase, paid, 'paid');
  if (result.granted && subscription && !isFirstMonth(purchase)) await renewed(tx, deps, subscription);
  return result.granted;
}

/**
 * A plan period nobody paid for (a trial, a 100% coupon): the subscription runs, and the period grants only the
 * credits the operator configured (STRIPE_FREE_PERIOD_CREDITS, default none; decision 119), once. A pack is
 * never free: nothing is granted for one.
 */
async function grantFreePeriod(tx: Tx, deps: AppDeps, purchase: Purchase): Promise<void> {
  const subscription = await subscriptionOf(tx, deps, purchase);
  if (!subscription) return;
  const credits = deps.config.payments.provider === 'stripe' ? deps.config.payments.freePeriodCredits : 0;
  const reference = `${purchase.reference}:free`;
  if (credits > 0) {
    const [seen] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(eq(creditTransactions.reference, reference));
    if (seen) return;
    const applied = await applyLedgerEntry(
      tx,
      {
        userId: purchase.userId,
        amount: credits,
        type: 'bonus',
        planName: purchase.plan.name,
        noteKind: 'monthly_plan_free_period',
        noteParams: { plan: purchase.plan.name },
        reference,
      },
      deps.metrics,
    );
    if (applied === null) throw new Error(`ledger refused a free period to ${purchase.userId}`);
  }
  if (!isFirstMonth(purchase)) await renewed(tx, deps, subscription);
}

/**
 * A payment that failed grants nothing; its purchase is marked failed unless it was paid meanwhile (an earlier
 * attempt reported late). A checkout whose delayed payment failed ends its subscription here and at Stripe,
 * which would otherwise keep it; a failed first invoice alone does not, as the buyer may still retry it.
 */
async function paymentFailed(
  tx: Tx,
  deps: AppDeps,
  purchase: Purchase,
  ref: PaymentRef,
  endSubscription: boolean,
): Promise<void> {
  const row = await recordPurchase(tx, purchase, ref, 'failed');
  if (row.status === 'paid' || !endSubscription || !purchase.subscriptionId) return;
  await tx
    .update(subscriptions)
    .set({ status: 'cancelled', updatedAt: deps.now() })
    .where(
      and(
        eq(subscriptions.providerSubscriptionId, purchase.subscriptionId),
        eq(subscriptions.status, 'active'),
      ),
    );
  // Inside the transaction: if Stripe cannot be reached, nothing is recorded and Stripe sends the event again.
  await paymentProvider(deps.config).cancelSubscription(purchase.subscriptionId);
}

type CheckoutEvent =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed';

/**
 * A checkout's outcome. Paid: the credits (and a new plan). Unpaid: a delayed payment is on its way and the
 * purchase waits, pending, for `async_payment_succeeded` or `_failed`. No payment required: a free period.
 */
async function onCheckout(
  tx: Tx,
  deps: AppDeps,
  type: CheckoutEvent,
  session: Stripe.Checkout.Session,
): Promise<void> {
  const purchase = await checkoutPurchase(tx, session);
  if (!purchase) return;
  const ref = { paymentIntentId: idOf(session.payment_intent), invoiceId: idOf(session.invoice) };
  if (type === 'checkout.session.async_payment_failed') {
    await paymentFailed(tx, deps, purchase, ref, true);
  } else if (session.payment_status === 'paid' || type === 'checkout.session.async_payment_succeeded') {
    await grantPaid(tx, deps, purchase, ref);
  } else if (session.payment_status === 'no_payment_required') {
    await grantFreePeriod(tx, deps, purchase);
  } else {
    await recordPurchase(tx, purchase, ref, 'pending');
  }
}

/**
 * A subscription invoice Stripe collected: its first month (once with the checkout's report of it, whichever
 * comes first; the invoice alone carries the payment intent a refund will name) or a renewal. An invoice of 0
 * (a trial, a 100% coupon) is a free period.
 */
async function onInvoicePaid(tx: Tx, deps: AppDeps, invoice: Stripe.Invoice): Promise<void> {
  const purchase = await invoicePurchase(tx, invoice);
  if (!purchase) return;
  if (invoice.amount_paid > 0) await grantPaid(tx, deps, purchase, invoiceRef(invoice));
  else await grantFreePeriod(tx, deps, purchase);
}

/** A failed first invoice marks its purchase failed; a failed renewal is Stripe's to retry, then to end. */
async function onInvoicePaymentFailed(tx: Tx, deps: AppDeps, invoice: Stripe.Invoice): Promise<void> {
  const purchase = await invoicePurchase(tx, invoice);
  if (purchase && isFirstMonth(purchase)) await paymentFailed(tx, deps, purchase, invoiceRef(invoice), false);
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
  if (!payment || payment.status === 'failed') return;
  // Reported before the payment's success reached us: Stripe sends the event again later, once it has.
  if (payment.status === 'pending') throw new AppError('CONFLICT', 'paymentNotSettled');
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
      case 'checkout.session.async_payment_failed':
        await onCheckout(tx, deps, event.type, event.data.object);
        break;
      case 'invoice.paid':
        await onInvoicePaid(tx, deps, event.data.object);
        break;
      case 'invoice.payment_failed':
        await onInvoicePaymentFailed(tx, deps, event.data.object);
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
