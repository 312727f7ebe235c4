import { and, eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TUserTransaction } from '#shared/contract/credits.js';
import { creditTransactions, emailOutbox } from '#server/db/schema.js';
import { TestClient, uniqueEmail } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { startTestSmtp, type TestSmtp } from '#server/test/smtp.js';
import { sendDueMails } from '../mail/sender.js';
import { renewDueSubscriptions } from './subscriptions.js';
import { PURCHASES } from './testing/purchases.js';

/*
 * Every paid grant is followed by one receipt in the buyer's language, read here as a mail client reads it:
 * through a real SMTP server. One app sells with demo payments, the other with Stripe (its webhook), both
 * sending to the same server.
 */

const WEBHOOK_SECRET = 'whsec_test_flujo_receipts';
const signer = new Stripe('sk_test_signer');

let smtp: TestSmtp;
let demo: TestApp;
let stripe: TestApp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  demo = await buildTestApp({ SMTP_URL: smtp.url });
  stripe = await buildTestApp({
    SMTP_URL: smtp.url,
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_flujo',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
});
afterEach(() => {
  demo.clock.reset();
  stripe.clock.reset();
});
afterAll(async () => {
  for (const t of [demo, stripe]) {
    if (!t) continue;
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    await t.close();
  }
  await smtp?.stop();
});

async function signUp(t: TestApp, language: 'es' | 'en') {
  const client = new TestClient(t);
  const email = uniqueEmail(`receipt-${language}`);
  const res = await client.post('/api/auth/signup', {
    email,
    password: 'correct-horse-battery',
    fullName: 'Rosa Recibo',
    language,
  });
  expect(res.statusCode).toBe(201);
  return { client, email: email.toLowerCase(), id: (res.json() as { id: string }).id };
}

const RECEIPT_SUBJECT = /^(Your Flujo receipt|Tu recibo de Flujo): /;

/** Sends what the outbox holds, then the receipts that reached this address (the sign-up mail aside). */
async function receiptsTo(t: TestApp, email: string, expected: number): Promise<ParsedMail[]> {
  await sendDueMails(t.deps);
  await expect
    .poll(() => smtp.to(email).filter((m) => RECEIPT_SUBJECT.test(m.subject ?? '')).length)
    .toBe(expected);
  return smtp.to(email).filter((m) => RECEIPT_SUBJECT.test(m.subject ?? ''));
}

/** The buyer's purchase rows, newest first, as their history shows them. */
async function purchases(client: TestClient): Promise<TUserTransaction[]> {
  const res = await client.get('/api/credits/transactions?type=purchase');
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('receipts of demo purchases', () => {
  it('sends the Spanish buyer of the Pro card one Spanish receipt, even when the purchase is repeated', async () => {
    const buyer = await signUp(demo, 'es');
    const headers = { 'idempotency-key': 'receipt-key-0001' };
    expect((await buyer.client.post('/api/credits/purchase', PURCHASES.proOffer, headers)).statusCode).toBe(
      200,
    );
    expect((await buyer.client.post('/api/credits/purchase', PURCHASES.proOffer, headers)).statusCode).toBe(
      200,
    );

    const [receipt, ...more] = await receiptsTo(demo, buyer.email, 1);
    expect(more).toEqual([]);
    const [row] = await purchases(buyer.client);
    expect(receipt!.subject).toBe('Tu recibo de Flujo: Oferta Pro');
    expect(receipt!.headers.get('content-language')).toBe('es');
    const text = receipt!.text ?? '';
    expect(text).toContain('Hola, Rosa Recibo:');
    expect(text).toContain('Se añadieron 55 créditos a tu saldo.');
    expect(text).toContain('Compra: Oferta Pro\n');
    expect(text).toContain('Créditos: 50 + 5 de bonificación = 55\n');
    // es-ES writes the amount as "20,00 US$" with a no-break space before the sign.
    expect(text).toMatch(/Importe pagado: 20,00\sUS\$\n/);
    expect(text).toMatch(/Fecha: \d{1,2} de [a-z]+ de \d{4}\n/);
    // The reference is the purchase row the buyer's own history lists.
    expect(text).toContain(`Referencia: ${row!.id}\n`);
    expect(text).toContain(`${demo.config.publicUrl}/account`);
    expect(receipt!.html).toContain('<html lang="es">');
    expect(receipt!.html).toContain(`<td style="padding:4px 0;word-break:break-all">${row!.id}</td>`);
  });

  it('sends the English buyer of a pack an English receipt without a bonus line', async () => {
    const buyer = await signUp(demo, 'en');
    expect((await buyer.client.post('/api/credits/purchase', PURCHASES.starterPack)).statusCode).toBe(200);
    const [receipt] = await receiptsTo(demo, buyer.email, 1);
    const [row] = await purchases(buyer.client);
    expect(receipt!.subject).toBe('Your Flujo receipt: Starter credit pack');
    expect(receipt!.headers.get('content-language')).toBe('en');
    const text = receipt!.text ?? '';
    expect(text).toContain('Hi Rosa Recibo,');
    expect(text).toContain('Credits: 10\n');
    expect(text).toContain('Amount paid: $5.00\n');
    expect(text).toMatch(/Date: [A-Z][a-z]+ \d{1,2}, \d{4}\n/);
    expect(text).toContain(`Reference: ${row!.id}\n`);
  });

  it('sends one receipt for the first month of a plan and one for each renewal, however often the job runs', async () => {
    const buyer = await signUp(demo, 'en');
    expect((await buyer.client.post('/api/credits/purchase', PURCHASES.proMonthly)).statusCode).toBe(200);
    demo.clock.advance(32 * 86_400_000);
    await renewDueSubscriptions(demo.deps);
    await renewDueSubscriptions(demo.deps);
    // Back to today, where the buyer's session is still alive.
    demo.clock.reset();

    const receipts = await receiptsTo(demo, buyer.email, 2);
    expect(receipts.map((m) => m.subject).sort()).toEqual([
      'Your Flujo receipt: Pro monthly plan renewal',
      'Your Flujo receipt: Pro monthly plan: first month',
    ]);
    for (const receipt of receipts) {
      expect(receipt.text).toContain('Credits: 60 + 12 bonus = 72\n');
      expect(receipt.text).toContain('Amount paid: $20.00\n');
    }
    const rows = await purchases(buyer.client);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(receipts.filter((m) => m.text?.includes(`Reference: ${row.id}\n`))).toHaveLength(1);
    }
  });

  it('writes no receipt when a purchase is refused', async () => {
    const buyer = await signUp(demo, 'es');
    const res = await buyer.client.post('/api/credits/purchase', { ...PURCHASES.proOffer, usdAmount: 12 });
    expect(res.statusCode).toBe(400);
    const outbox = await demo.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, buyer.id), eq(emailOutbox.kind, 'purchase_receipt')));
    expect(outbox).toEqual([]);
  });
});

describe('receipts of Stripe payments', () => {
  let eventCounter = 0;
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({
      id: `evt_receipt_${++eventCounter}`,
      object: 'event',
      type,
      api_version: '2025-01-01',
      data: { object },
    });
  const deliver = async (payload: string) => {
    const res = await new TestClient(stripe).request('POST', '/api/payments/stripe/webhook', payload, {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      origin: 'https://stripe.example',
    });
    expect(res.statusCode).toBe(200);
  };

  it('sends one receipt for a paid card checkout that Stripe delivers twice', async () => {
    const buyer = await signUp(stripe, 'es');
    const paid = event('checkout.session.completed', {
      id: `cs_receipt_${buyer.id}`,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: `pi_receipt_${buyer.id}`,
      metadata: { userId: buyer.id, planId: 'enterprise', planType: 'offer' },
    });
    await deliver(paid);
    await deliver(paid);

    const [receipt] = await receiptsTo(stripe, buyer.email, 1);
    expect(receipt!.subject).toBe('Tu recibo de Flujo: Oferta Enterprise');
    expect(receipt!.text).toContain('Créditos: 300 + 30 de bonificación = 330\n');
    expect(receipt!.text).toMatch(/Importe pagado: 100,00\sUS\$\n/);
    const [row] = await purchases(buyer.client);
    expect(row).toMatchObject({ amount: 300, usd_amount: '100.00', plan_name: 'Enterprise' });
    expect(receipt!.text).toContain(`Referencia: ${row!.id}\n`);
  });

  it('sends one receipt for each paid renewal invoice, redelivered or not', async () => {
    const buyer = await signUp(stripe, 'en');
    const metadata = { userId: buyer.id, planId: 'starter', planType: 'monthly' };
    const subscription = `sub_receipt_${buyer.id.slice(0, 8)}`;
    await deliver(
      event('checkout.session.completed', {
        id: `cs_${subscription}`,
        mode: 'subscription',
        payment_status: 'paid',
        subscription,
        metadata,
      }),
    );
    const renewal = event('invoice.paid', {
      id: `in_receipt_${buyer.id}`,
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      amount_paid: 800,
      parent: { type: 'subscription_details', subscription_details: { subscription, metadata } },
    });
    await deliver(renewal);
    await deliver(renewal);

    const receipts = await receiptsTo(stripe, buyer.email, 2);
    expect(receipts.map((m) => m.subject).sort()).toEqual([
      'Your Flujo receipt: Starter monthly plan renewal',
      'Your Flujo receipt: Starter monthly plan: first month',
    ]);
    const granted = await stripe.database.db
      .select()
      .from(creditTransactions)
      .where(
        and(eq(creditTransactions.userId, buyer.id), eq(creditTransactions.transactionType, 'purchase')),
      );
    expect(granted).toHaveLength(2);
  });
});
