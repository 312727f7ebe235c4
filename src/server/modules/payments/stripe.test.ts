import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adminAuditLogs,
  creditTransactions,
  stripePayments,
  subscriptions,
  userProfiles,
} from '#server/db/schema.js';
import { applyLedgerEntry } from '#server/modules/credits/ledger.js';
import { signUpUser, TestClient } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { renewDueSubscriptions } from '../credits/subscriptions.js';
import { PURCHASES } from '../credits/testing/purchases.js';

const WEBHOOK_SECRET = 'whsec_test_flujo_payments';

/** What the stand-in for api.stripe.com received. */
interface StripeCall {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

let t: TestApp;
let stripeApi: Server;
let calls: StripeCall[] = [];
let sessionCounter = 0;
/** When set, the stand-in answers every call with a 500, as an outage would. */
let stripeDown = false;
const signer = new Stripe('sk_test_signer');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  // Answers the two calls the app makes: create a checkout session, cancel a subscription.
  stripeApi = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = req.url ?? '';
      calls.push({
        method: req.method ?? '',
        path,
        form: new URLSearchParams(body),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      });
      res.setHeader('content-type', 'application/json');
      if (stripeDown) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Outage' } }));
      } else if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        sessionCounter += 1;
        const id = `cs_test_${sessionCounter}`;
        res.end(
          JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}` }),
        );
      } else if (req.method === 'DELETE' && path.startsWith('/v1/subscriptions/')) {
        res.end(JSON.stringify({ id: path.split('/').pop(), object: 'subscription', status: 'canceled' }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such route' } }));
      }
    });
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const { port } = stripeApi.address() as AddressInfo;
  t = await buildTestApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_flujo',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: `http://127.0.0.1:${port}`,
  });
});
beforeEach(() => {
  calls = [];
});
afterAll(async () => {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  await t?.close();
  await new Promise((resolve) => stripeApi?.close(resolve));
});

const creditsOf = async (userId: string) =>
  (await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, userId)))[0]?.credits;

let eventCounter = 0;
function event(type: string, object: Record<string, unknown>, id = `evt_test_${++eventCounter}`) {
  return JSON.stringify({ id, object: 'event', type, api_version: '2025-01-01', data: { object } });
}

/** Posts a webhook as Stripe would: the raw JSON and a Stripe-Signature over it. */
function deliver(
  payload: string,
  signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
) {
  return new TestClient(t).request('POST', '/api/payments/stripe/webhook', payload, {
    'content-type': 'application/json',
    'stripe-signature': signature,
    origin: 'https://stripe.example',
  });
}

const paidCheckout = (userId: string, planId = 'pro', sessionId = `cs_test_paid_${userId}`) =>
  event('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    metadata: { userId, planId, planType: 'unique' },
  });

/** A paid checkout of a monthly plan that opened Stripe subscription `subscription`; `extra` adds fields. */
const subscriptionCheckout = (
  metadata: { userId: string; planId: string; planType: 'monthly' },
  subscription: string,
  extra: Record<string, unknown> = {},
) =>
  event('checkout.session.completed', {
    id: `cs_${subscription}`,
    mode: 'subscription',
    payment_status: 'paid',
    subscription,
    metadata,
    ...extra,
  });

describe('purchase with PAYMENT_PROVIDER=stripe', () => {
  it('says the provider is stripe', async () => {
    const { client } = await signUpUser(t);
    expect((await client.get('/api/credits/plans')).json().provider).toBe('stripe');
  });

  it('answers a Checkout URL for a pack and grants nothing yet', async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', PURCHASES.proPack, {
      'idempotency-key': 'stripe-key-0001',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'checkout',
      provider: 'stripe',
      checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/),
    });
    expect(await creditsOf(id)).toBe(5);
    expect(calls).toHaveLength(1);
    const { form, idempotencyKey } = calls[0]!;
    expect(form.get('mode')).toBe('payment');
    expect(form.get('metadata[userId]')).toBe(id);
    expect(form.get('metadata[planId]')).toBe('pro');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('1200');
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('success_url')).toMatch(/\/buy-credits\?checkout=success$/);
    expect(idempotencyKey).toBe(`flujo:${id}:stripe-key-0001`);

    const again = await client.post('/api/credits/purchase', PURCHASES.proPack, {
      'idempotency-key': 'stripe-key-0001',
    });
    expect(again.json()).toEqual(res.json());
    expect(calls).toHaveLength(1);
  });

  it('opens a subscription-mode checkout for a monthly plan', async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', PURCHASES.proMonthly);
    expect(res.statusCode).toBe(200);
    const { form } = calls[0]!;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('2000');
    expect(form.get('subscription_data[metadata][userId]')).toBe(id);
  });

  it("sells an account card at the card's price, naming its credits and bonus, in payment mode", async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', PURCHASES.proOffer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'checkout', provider: 'stripe' });
    expect(await creditsOf(id)).toBe(5);
    const { form } = calls[0]!;
    expect(form.get('mode')).toBe('payment');
    expect(form.get('metadata[planType]')).toBe('offer');
    expect(form.get('metadata[planId]')).toBe('pro');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('2000');
    expect(form.get('line_items[0][price_data][product_data][name]')).toBe(
      'Flujo Pro offer: 50 credits + 5 bonus',
    );
  });

  it('still refuses a tampered price before calling Stripe', async () => {
    const { client } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', { ...PURCHASES.proPack, usdAmount: 0.5 });
    expect(res.statusCode).toBe(400);
    expect(calls).toHaveLength(0);
  });
});

describe('when Stripe is down', () => {
  it('answers 502 and stores no key, so the same key works once Stripe is back', async () => {
    const { client, id } = await signUpUser(t);
    const headers = { 'idempotency-key': 'outage-key-0001' };
    stripeDown = true;
    try {
      const res = await client.post('/api/credits/purchase', PURCHASES.proPack, headers);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'BAD_GATEWAY' });
    } finally {
      stripeDown = false;
    }
    const retry = await client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ status: 'checkout' });
    expect(await creditsOf(id)).toBe(5);
  });
});

describe('POST /api/payments/stripe/webhook', () => {
  it('grants a paid pack once, however often the event is delivered', async () => {
    const { id, client } = await signUpUser(t);
    const payload = paidCheckout(id);
    const first = await deliver(payload);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await creditsOf(id)).toBe(35);
    const again = await deliver(payload);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await creditsOf(id)).toBe(35);
    const rows = (await client.get('/api/credits/transactions?type=purchase')).json();
    expect(rows).toEqual([expect.objectContaining({ amount: 30, usd_amount: '12.00', plan_name: 'Pro' })]);
  });

  it('grants a checkout once even if Stripe sends it under a second event id', async () => {
    const { id } = await signUpUser(t);
    await deliver(paidCheckout(id, 'starter', 'cs_twice'));
    await deliver(paidCheckout(id, 'starter', 'cs_twice'));
    expect(await creditsOf(id)).toBe(15);
  });

  it.each([
    [
      'a wrong secret',
      (p: string) => signer.webhooks.generateTestHeaderString({ payload: p, secret: 'whsec_wrong' }),
    ],
    ['no signature', () => ''],
    ['a garbage header', () => 't=1,v1=deadbeef'],
    [
      'a signature of another payload',
      () =>
        signer.webhooks.generateTestHeaderString({ payload: '{"id":"evt_other"}', secret: WEBHOOK_SECRET }),
    ],
    [
      'an old timestamp',
      (p: string) =>
        signer.webhooks.generateTestHeaderString({
          payload: p,
          secret: WEBHOOK_SECRET,
          timestamp: Math.floor(Date.now() / 1000) - 3600,
        }),
    ],
  ])('answers 400 for %s and grants nothing', async (_what, sign) => {
    const { id } = await signUpUser(t);
    const payload = paidCheckout(id);
    const res = await deliver(payload, sign(payload));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    expect(await creditsOf(id)).toBe(5);
  });

  it('ignores an unpaid checkout and events for unknown users or plans', async () => {
    const { id } = await signUpUser(t);
    const unpaid = event('checkout.session.completed', {
      id: 'cs_unpaid',
      mode: 'payment',
      payment_status: 'unpaid',
      metadata: { userId: id, planId: 'pro', planType: 'unique' },
    });
    expect((await deliver(unpaid)).statusCode).toBe(200);
    const unknownPlan = paidCheckout(id, 'platinum', 'cs_unknown_plan');
    expect((await deliver(unknownPlan)).statusCode).toBe(200);
    const unknownUser = paidCheckout('00000000-0000-4000-8000-000000000000');
    expect((await deliver(unknownUser)).statusCode).toBe(200);
    expect((await deliver(event('customer.created', { id: 'cus_1' }))).statusCode).toBe(200);
    expect(await creditsOf(id)).toBe(5);
  });

  it('opens a monthly plan on checkout, grants each paid renewal invoice once, and cancels at Stripe', async () => {
    const { id, client } = await signUpUser(t);
    const metadata = { userId: id, planId: 'pro', planType: 'monthly' } as const;
    const subId = `sub_${id.slice(0, 8)}`;
    await deliver(subscriptionCheckout(metadata, subId));
    expect(await creditsOf(id)).toBe(5 + 72);
    expect((await client.get('/api/credits/subscription')).json().subscription).toMatchObject({
      planName: 'Pro',
      provider: 'stripe',
      status: 'active',
    });

    const invoice = (invoiceId: string, billingReason: string) =>
      event('invoice.paid', {
        id: invoiceId,
        object: 'invoice',
        billing_reason: billingReason,
        amount_paid: 2000,
        parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata } },
      });
    // The first invoice is the checkout's own payment: already granted above.
    await deliver(invoice(`in_first_${id}`, 'subscription_create'));
    expect(await creditsOf(id)).toBe(5 + 72);
    await deliver(invoice(`in_second_${id}`, 'subscription_cycle'));
    await deliver(invoice(`in_second_${id}`, 'subscription_cycle'));
    expect(await creditsOf(id)).toBe(5 + 2 * 72);

    // The demo renewal job leaves Stripe's subscriptions alone.
    t.clock.advance(40 * 86_400_000);
    await renewDueSubscriptions(t.deps);
    t.clock.reset();
    expect(await creditsOf(id)).toBe(5 + 2 * 72);

    const cancel = await client.post('/api/credits/subscription/cancel');
    expect(cancel.statusCode).toBe(200);
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${subId}`)).toBe(true);
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id));
    expect(row?.status).toBe('cancelled');
    expect(await creditsOf(id)).toBe(5 + 2 * 72);
  });

  it('marks the plan cancelled when Stripe deletes the subscription', async () => {
    const { id } = await signUpUser(t);
    const subId = `sub_del_${id.slice(0, 8)}`;
    await deliver(
      event('checkout.session.completed', {
        id: `cs_del_${id}`,
        mode: 'subscription',
        payment_status: 'paid',
        subscription: subId,
        metadata: { userId: id, planId: 'starter', planType: 'monthly' },
      }),
    );
    await deliver(event('customer.subscription.deleted', { id: subId, object: 'subscription' }));
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id));
    expect(row?.status).toBe('cancelled');
    const ledger = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, id));
    expect(ledger.reduce((sum, r) => sum + r.amount, 0)).toBe(5 + 22);
  });
});

describe('refunds and disputes take the credits back', () => {
  const packFor = (userId: string, paymentIntent: string) =>
    event('checkout.session.completed', {
      id: `cs_test_refund_${paymentIntent}`,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: paymentIntent,
      metadata: { userId, planId: 'pro', planType: 'unique' },
    });
  const refunded = (paymentIntent: string, amountRefunded: number, id?: string) =>
    event(
      'charge.refunded',
      {
        id: `ch_${paymentIntent}`,
        object: 'charge',
        payment_intent: paymentIntent,
        amount: 1200,
        amount_refunded: amountRefunded,
        refunded: amountRefunded === 1200,
      },
      id,
    );
  const disputed = (paymentIntent: string) =>
    event('charge.dispute.created', {
      id: `dp_${paymentIntent}`,
      object: 'dispute',
      charge: `ch_${paymentIntent}`,
      payment_intent: paymentIntent,
      amount: 1200,
      status: 'needs_response',
    });
  const reversalRows = (userId: string) =>
    t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
      .then((rows) =>
        rows.filter((r) => r.noteKind === 'payment_refunded' || r.noteKind === 'payment_disputed'),
      );
  const auditOf = (userId: string) =>
    t.database.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.targetId, userId))
      .then((rows) => rows.filter((r) => r.actionType === 'payment_reversed'));

  it('a partial then a full refund take back their share once each; a redelivered event changes nothing', async () => {
    const { id, client } = await signUpUser(t);
    const pi = `pi_partial_${id.slice(0, 8)}`;
    await deliver(packFor(id, pi));
    expect(await creditsOf(id)).toBe(5 + 30);

    const half = refunded(pi, 600, `evt_half_${id}`);
    expect((await deliver(half)).statusCode).toBe(200);
    expect(await creditsOf(id)).toBe(5 + 15);
    expect((await deliver(half)).json()).toMatchObject({ duplicate: true });
    expect(await creditsOf(id)).toBe(5 + 15);

    await deliver(refunded(pi, 1200));
    expect(await creditsOf(id)).toBe(5);
    // A later report of the same full refund finds nothing left to take.
    await deliver(refunded(pi, 1200));
    expect(await creditsOf(id)).toBe(5);
    expect((await reversalRows(id)).map((r) => r.amount)).toEqual([-15, -15]);

    // The history shows it, worded in the reader's language.
    const history = (await client.get('/api/credits/transactions')).json() as Array<{
      amount: number;
      note_kind: string;
      note_params: { plan?: string };
      notes: string | null;
    }>;
    expect(history.filter((r) => r.note_kind === 'payment_refunded')).toEqual([
      expect.objectContaining({ amount: -15, note_params: { plan: 'Pro' } }),
      expect.objectContaining({ amount: -15, note_params: { plan: 'Pro' } }),
    ]);
    expect(history.find((r) => r.note_kind === 'payment_refunded')?.notes).toBe(
      'Credits taken back: the Pro payment was refunded',
    );
    const audits = await auditOf(id);
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.adminUserId)).toEqual([null, null]);
    expect(audits.map((a) => a.details)).toContainEqual(
      expect.objectContaining({
        reason: 'refund',
        creditsTakenBack: 15,
        creditsUnrecovered: 0,
        paymentIntent: pi,
      }),
    );
  });

  it('a dispute of credits already spent takes the balance to zero, never below, and notes the rest for the admin', async () => {
    const { id } = await signUpUser(t);
    const pi = `pi_dispute_${id.slice(0, 8)}`;
    await deliver(packFor(id, pi));
    // 25 of the 35 credits are spent (an admin adjustment stands in for runs here).
    await t.database.db.transaction((tx) =>
      applyLedgerEntry(
        tx,
        { userId: id, amount: -25, type: 'admin_adjustment', notes: 'spent' },
        t.deps.metrics,
      ),
    );
    expect(await creditsOf(id)).toBe(10);

    expect((await deliver(disputed(pi))).statusCode).toBe(200);
    expect(await creditsOf(id)).toBe(0);
    expect((await reversalRows(id)).map((r) => [r.noteKind, r.amount])).toEqual([['payment_disputed', -10]]);
    const [payment] = await t.database.db
      .select()
      .from(stripePayments)
      .where(eq(stripePayments.paymentIntentId, pi));
    expect(payment).toMatchObject({ credits: 30, creditsReversed: 30, creditsUnrecovered: 20 });
    const [audit] = await auditOf(id);
    expect(audit?.details).toMatchObject({
      reason: 'dispute',
      creditsToTakeBack: 30,
      creditsTakenBack: 10,
      creditsUnrecovered: 20,
      balanceAfter: 0,
    });
    // A refund after the dispute finds nothing more to take, and the balance never went negative.
    await deliver(refunded(pi, 1200));
    expect(await creditsOf(id)).toBe(0);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a refunded renewal invoice is found by its payment intent; unknown payments and bad signatures change nothing', async () => {
    const { id } = await signUpUser(t);
    const metadata = { userId: id, planId: 'starter', planType: 'monthly' } as const;
    const subId = `sub_refund_${id.slice(0, 8)}`;
    await deliver(subscriptionCheckout(metadata, subId, { invoice: `in_first_refund_${id}` }));
    const afterFirst = await creditsOf(id);
    const pi = `pi_renewal_${id.slice(0, 8)}`;
    await deliver(
      event('invoice.paid', {
        id: `in_second_refund_${id}`,
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: 800,
        parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata } },
        payments: { object: 'list', data: [{ payment: { type: 'payment_intent', payment_intent: pi } }] },
      }),
    );
    const afterRenewal = await creditsOf(id);
    expect(afterRenewal).toBeGreaterThan(afterFirst!);

    const forged = refunded(pi, 1200);
    const badSignature = signer.webhooks.generateTestHeaderString({ payload: forged, secret: 'whsec_wrong' });
    expect((await deliver(forged, badSignature)).statusCode).toBe(400);
    expect(await creditsOf(id)).toBe(afterRenewal);

    expect((await deliver(refunded('pi_nobody_knows', 1200))).statusCode).toBe(200);
    expect((await deliver(disputed('pi_nobody_knows'))).statusCode).toBe(200);
    expect(await creditsOf(id)).toBe(afterRenewal);

    await deliver(refunded(pi, 1200));
    expect(await creditsOf(id)).toBe(afterFirst);
  });
});

describe('a subscription grants only paid money', () => {
  const monthly = (userId: string) => ({ userId, planId: 'pro', planType: 'monthly' }) as const;
  /** The Pro plan's month: 60 credits and its 20% bonus. */
  const PRO_MONTH = 72;
  const subOf = (userId: string, tag: string) => `sub_${tag}_${userId.slice(0, 8)}`;
  const details = (userId: string, subscription: string) => ({
    type: 'subscription_details',
    subscription_details: { subscription, metadata: monthly(userId) },
  });
  /** The subscription's first invoice, in the current API's shape: its payment intent only in `payments`. */
  const firstInvoice = (
    type: 'invoice.paid' | 'invoice.payment_failed',
    userId: string,
    subscription: string,
    extra: Record<string, unknown> = {},
  ) =>
    event(type, {
      id: `in_first_${subscription}`,
      object: 'invoice',
      billing_reason: 'subscription_create',
      amount_paid: type === 'invoice.paid' ? 2000 : 0,
      parent: details(userId, subscription),
      payments: {
        object: 'list',
        data: [{ payment: { type: 'payment_intent', payment_intent: `pi_first_${subscription}` } }],
      },
      ...extra,
    });
  const renewal = (userId: string, subscription: string, invoiceId: string, amountPaid: number) =>
    event('invoice.paid', {
      id: invoiceId,
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      amount_paid: amountPaid,
      parent: details(userId, subscription),
    });
  const checkout = (userId: string, subscription: string, paymentStatus: string) =>
    subscriptionCheckout(monthly(userId), subscription, {
      payment_status: paymentStatus,
      invoice: `in_first_${subscription}`,
    });
  const asyncOutcome = (outcome: 'succeeded' | 'failed', userId: string, subscription: string) =>
    event(`checkout.session.async_payment_${outcome}`, {
      id: `cs_${subscription}`,
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: outcome === 'succeeded' ? 'paid' : 'unpaid',
      subscription,
      invoice: `in_first_${subscription}`,
      metadata: monthly(userId),
    });
  const charge = (type: 'charge.refunded' | 'charge.dispute.created', paymentIntent: string) =>
    type === 'charge.refunded'
      ? // No `invoice` on the charge: Stripe's API removed it (2025-03-31).
        event(type, {
          id: `ch_${paymentIntent}`,
          object: 'charge',
          payment_intent: paymentIntent,
          amount: 2000,
          amount_refunded: 2000,
          refunded: true,
        })
      : event(type, {
          id: `dp_${paymentIntent}`,
          object: 'dispute',
          charge: `ch_${paymentIntent}`,
          payment_intent: paymentIntent,
          amount: 2000,
          status: 'needs_response',
        });
  const purchaseOf = async (subscription: string) =>
    (
      await t.database.db
        .select()
        .from(stripePayments)
        .where(eq(stripePayments.reference, `stripe:subscription:${subscription}:first`))
    )[0];
  const planOf = async (client: TestClient) =>
    (await client.get('/api/credits/subscription')).json().subscription as { status: string } | null;
  const plansOf = (userId: string) =>
    t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const reconciled = async () => expect(await ledgerMismatches(t.database.db)).toEqual([]);

  it('an unpaid checkout (a delayed payment method) grants nothing and opens no plan', async () => {
    const { id, client } = await signUpUser(t);
    const sub = subOf(id, 'unpaid');
    const res = await deliver(checkout(id, sub, 'unpaid'));
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await creditsOf(id)).toBe(5);
    expect(await planOf(client)).toBeNull();
    expect(await purchaseOf(sub)).toMatchObject({ status: 'pending', userId: id, credits: PRO_MONTH });

    // One monthly plan at a time counts the one waiting for its money; a pack can still be bought.
    calls = [];
    const again = await client.post('/api/credits/purchase', PURCHASES.starterMonthly);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      error:
        'The payment of your monthly plan is still on its way; choose another plan once it has arrived or failed',
    });
    const es = await client.post('/api/credits/purchase', PURCHASES.starterMonthly, {
      'accept-language': 'es',
    });
    expect(es.json().error).toBe(
      'El pago de tu plan mensual aún está en camino; elige otro plan cuando haya llegado o fallado',
    );
    expect(calls).toEqual([]);
    expect((await client.post('/api/credits/purchase', PURCHASES.proPack)).statusCode).toBe(200);
    expect(await creditsOf(id)).toBe(5);
    await reconciled();
  });

  it('a delayed payment that fails grants nothing, marks the purchase failed and ends the subscription at Stripe', async () => {
    const { id, client } = await signUpUser(t);
    const sub = subOf(id, 'sepafail');
    await deliver(checkout(id, sub, 'unpaid'));
    const failed = asyncOutcome('failed', id, sub);

    // Stripe cannot be reached to end the subscription: nothing is recorded, and Stripe sends the event again.
    stripeDown = true;
    try {
      expect((await deliver(failed)).statusCode).toBe(502);
    } finally {
      stripeDown = false;
    }
    expect((await purchaseOf(sub))?.status).toBe('pending');

    expect((await deliver(failed)).json()).toEqual({ received: true, duplicate: false });
    expect(await creditsOf(id)).toBe(5);
    expect((await purchaseOf(sub))?.status).toBe('failed');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toContain(
      `/v1/subscriptions/${sub}`,
    );
    expect(await planOf(client)).toBeNull();
    expect((await plansOf(id)).filter((p) => p.status === 'active')).toEqual([]);
    // With the payment failed, another plan may be chosen.
    expect((await client.post('/api/credits/purchase', PURCHASES.starterMonthly)).statusCode).toBe(200);

    // The completion reported again (or late) does not make the failed purchase pending, nor grant anything.
    await deliver(checkout(id, sub, 'unpaid'));
    expect((await purchaseOf(sub))?.status).toBe('failed');
    expect(await creditsOf(id)).toBe(5);
    await reconciled();
  });

  it('a delayed payment that succeeds grants the first month once, whatever order Stripe reports it in', async () => {
    const { id, client } = await signUpUser(t);
    const sub = subOf(id, 'sepaok');
    await deliver(checkout(id, sub, 'unpaid'));
    const succeeded = asyncOutcome('succeeded', id, sub);
    await deliver(succeeded);
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    expect((await deliver(succeeded)).json()).toMatchObject({ duplicate: true });
    await deliver(firstInvoice('invoice.paid', id, sub));
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    expect(await planOf(client)).toMatchObject({ status: 'active', planName: 'Pro' });
    expect(await purchaseOf(sub)).toMatchObject({
      status: 'paid',
      invoiceId: `in_first_${sub}`,
      paymentIntentId: `pi_first_${sub}`,
    });
    // A renewal still grants its month.
    await deliver(renewal(id, sub, `in_next_${sub}`, 2000));
    expect(await creditsOf(id)).toBe(5 + 2 * PRO_MONTH);
    await reconciled();

    // The other way round: the invoice first, then the success, then the checkout's completion.
    const other = await signUpUser(t);
    const sub2 = subOf(other.id, 'sepalate');
    await deliver(firstInvoice('invoice.paid', other.id, sub2));
    await deliver(asyncOutcome('succeeded', other.id, sub2));
    await deliver(checkout(other.id, sub2, 'unpaid'));
    expect(await creditsOf(other.id)).toBe(5 + PRO_MONTH);
    expect((await purchaseOf(sub2))?.status).toBe('paid');
    expect(await plansOf(other.id)).toEqual([expect.objectContaining({ status: 'active' })]);
    await reconciled();
  });

  it('a checkout and its first invoice delivered at the same moment grant once and open one plan', async () => {
    const { id } = await signUpUser(t);
    const sub = subOf(id, 'together');
    const answers = await Promise.all([
      deliver(checkout(id, sub, 'paid')),
      deliver(firstInvoice('invoice.paid', id, sub)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    expect(await plansOf(id)).toEqual([expect.objectContaining({ status: 'active' })]);
    expect(await purchaseOf(sub)).toMatchObject({ status: 'paid', paymentIntentId: `pi_first_${sub}` });
    await reconciled();
  });

  it('a failed first invoice marks the purchase failed; a retry that is paid grants, and a late failure changes nothing', async () => {
    const { id, client } = await signUpUser(t);
    const sub = subOf(id, 'retry');
    await deliver(checkout(id, sub, 'unpaid'));
    await deliver(firstInvoice('invoice.payment_failed', id, sub));
    expect((await purchaseOf(sub))?.status).toBe('failed');
    expect(await creditsOf(id)).toBe(5);
    // The buyer may still pay this invoice: the subscription is not ended at Stripe for it.
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await deliver(firstInvoice('invoice.paid', id, sub));
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    expect(await planOf(client)).toMatchObject({ status: 'active' });
    await deliver(firstInvoice('invoice.payment_failed', id, sub));
    expect((await purchaseOf(sub))?.status).toBe('paid');
    expect(await planOf(client)).toMatchObject({ status: 'active' });
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    await reconciled();
  });

  it('no payment required (a trial, a 100% coupon) opens the plan and grants nothing by default; paid renewals grant', async () => {
    const { id, client } = await signUpUser(t);
    const sub = subOf(id, 'trial');
    await deliver(checkout(id, sub, 'no_payment_required'));
    await deliver(
      firstInvoice('invoice.paid', id, sub, { amount_paid: 0, payments: { object: 'list', data: [] } }),
    );
    expect(await creditsOf(id)).toBe(5);
    expect(await planOf(client)).toMatchObject({ status: 'active' });
    await deliver(renewal(id, sub, `in_free_${sub}`, 0));
    expect(await creditsOf(id)).toBe(5);
    await deliver(renewal(id, sub, `in_paid_${sub}`, 2000));
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    await reconciled();
  });

  it.each(['charge.refunded', 'charge.dispute.created'] as const)(
    '%s of the first month, named only by its payment intent, takes its credits back once',
    async (type) => {
      const { id } = await signUpUser(t);
      const sub = subOf(id, type === 'charge.refunded' ? 'refund' : 'dispute');
      await deliver(checkout(id, sub, 'paid'));
      await deliver(firstInvoice('invoice.paid', id, sub));
      expect(await creditsOf(id)).toBe(5 + PRO_MONTH);

      const reversal = charge(type, `pi_first_${sub}`);
      expect((await deliver(reversal)).json()).toEqual({ received: true, duplicate: false });
      expect(await creditsOf(id)).toBe(5);
      expect((await deliver(reversal)).json()).toMatchObject({ duplicate: true });
      // The same report under a new event id (or a refund after the dispute) finds nothing left to take.
      await deliver(charge(type, `pi_first_${sub}`));
      await deliver(charge('charge.refunded', `pi_first_${sub}`));
      expect(await creditsOf(id)).toBe(5);
      expect(await purchaseOf(sub)).toMatchObject({ creditsReversed: PRO_MONTH, creditsUnrecovered: 0 });
      const reversals = (
        await t.database.db.select().from(creditTransactions).where(eq(creditTransactions.userId, id))
      ).filter((r) => r.noteKind === 'payment_refunded' || r.noteKind === 'payment_disputed');
      expect(reversals.map((r) => r.amount)).toEqual([-PRO_MONTH]);
      await reconciled();
    },
  );

  it('a refund reported before the delayed payment succeeded is refused for now and applied when Stripe resends it', async () => {
    const { id } = await signUpUser(t);
    const pi = `pi_early_${id.slice(0, 8)}`;
    const pack = (type: string, paymentStatus: string) =>
      event(type, {
        id: `cs_early_${id}`,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: paymentStatus,
        payment_intent: pi,
        metadata: { userId: id, planId: 'pro', planType: 'unique' },
      });
    await deliver(pack('checkout.session.completed', 'unpaid'));
    const refund = event('charge.refunded', {
      id: `ch_${pi}`,
      object: 'charge',
      payment_intent: pi,
      amount: 1200,
      amount_refunded: 1200,
      refunded: true,
    });
    const early = await deliver(refund);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'CONFLICT',
      error: 'The payment has not been settled here yet; send the event again later',
    });
    expect(await creditsOf(id)).toBe(5);

    await deliver(pack('checkout.session.async_payment_succeeded', 'paid'));
    expect(await creditsOf(id)).toBe(5 + 30);
    expect((await deliver(refund)).json()).toEqual({ received: true, duplicate: false });
    expect(await creditsOf(id)).toBe(5);
    await reconciled();
  });
});

describe('with STRIPE_FREE_PERIOD_CREDITS set', () => {
  let free: TestApp;
  beforeAll(async () => {
    const { port } = stripeApi.address() as AddressInfo;
    free = await buildTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_flujo',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${port}`,
      STRIPE_FREE_PERIOD_CREDITS: '10',
    });
  });
  afterAll(async () => {
    expect(await ledgerMismatches(free.database.db)).toEqual([]);
    await free?.close();
  });

  it('a period without payment grants the configured credits once, as a bonus', async () => {
    const { id, client } = await signUpUser(free);
    const sub = `sub_freecfg_${id.slice(0, 8)}`;
    const metadata = { userId: id, planId: 'pro', planType: 'monthly' } as const;
    const post = (payload: string) =>
      new TestClient(free).request('POST', '/api/payments/stripe/webhook', payload, {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      });
    await post(subscriptionCheckout(metadata, sub, { payment_status: 'no_payment_required' }));
    await post(
      event('invoice.paid', {
        id: `in_first_${sub}`,
        object: 'invoice',
        billing_reason: 'subscription_create',
        amount_paid: 0,
        parent: { type: 'subscription_details', subscription_details: { subscription: sub, metadata } },
      }),
    );
    const balance = (await free.database.db.select().from(userProfiles).where(eq(userProfiles.id, id)))[0]
      ?.credits;
    expect(balance).toBe(5 + 10);
    const rows = (await client.get('/api/credits/transactions?type=bonus')).json() as Array<{
      note_kind: string;
    }>;
    expect(rows.filter((r) => r.note_kind === 'monthly_plan_free_period')).toEqual([
      expect.objectContaining({
        amount: 10,
        plan_name: 'Pro',
        notes: 'Pro monthly plan: a period without payment',
      }),
    ]);
  });
});
