import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions, subscriptions, userProfiles } from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import type { AppDeps } from '#server/types.js';
import { nextBillingDate, renewDueSubscriptions } from './subscriptions.js';
import { PURCHASES } from './testing/purchases.js';

let t: TestApp;
let deps: AppDeps;
beforeAll(async () => {
  t = await buildTestApp();
  deps = t.deps;
});
afterEach(() => t.clock.reset());
afterAll(async () => {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  await t?.close();
});

const DAY = 86_400_000;
const PRO_MONTH = 60 + 12;

// The clock moves past the session lifetime here, so balances are read from the database.
const creditsOf = async (userId: string) =>
  (await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, userId)))[0]?.credits;
const subscriptionOf = async (userId: string) =>
  (await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];

async function subscriber() {
  const user = await signUpUser(t);
  const res = await user.client.post('/api/credits/purchase', PURCHASES.proMonthly);
  expect(res.statusCode).toBe(200);
  return user;
}

describe('billing dates', () => {
  it.each([
    ['2026-01-31T10:00:00Z', 31, '2026-02-28T10:00:00.000Z'],
    ['2026-02-28T10:00:00Z', 31, '2026-03-31T10:00:00.000Z'],
    ['2028-01-30T00:00:00Z', 30, '2028-02-29T00:00:00.000Z'],
    ['2026-12-15T08:30:00Z', 15, '2027-01-15T08:30:00.000Z'],
  ])('after %s on anchor day %i comes %s', (from, anchor, expected) => {
    expect(nextBillingDate(new Date(from), anchor).toISOString()).toBe(expected);
  });
});

describe('renewal job', () => {
  it('grants nothing before the renewal date', async () => {
    const { id } = await subscriber();
    expect(await renewDueSubscriptions(deps)).toBe(0);
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
  });

  it('grants the month (credits + bonus) once on the renewal date and moves the date a month on', async () => {
    const { id } = await subscriber();
    const before = await subscriptionOf(id);
    t.clock.advance(32 * DAY);
    expect(await renewDueSubscriptions(deps)).toBeGreaterThanOrEqual(1);
    expect(await creditsOf(id)).toBe(5 + 2 * PRO_MONTH);
    const after = await subscriptionOf(id);
    expect(after?.nextRenewalDate.toISOString()).toBe(
      nextBillingDate(before!.nextRenewalDate, before!.createdAt.getUTCDate()).toISOString(),
    );
    const rows = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, id));
    const renewals = rows.filter((r) => r.reference?.startsWith(`renewal:${before!.id}:`));
    // First month and one renewal, each a purchase and a bonus row.
    expect(renewals.map((r) => `${r.transactionType} ${r.amount}`).sort()).toEqual([
      'bonus 12',
      'bonus 12',
      'purchase 60',
      'purchase 60',
    ]);
    expect(await renewDueSubscriptions(deps)).toBe(0);
    expect(await creditsOf(id)).toBe(5 + 2 * PRO_MONTH);
  });

  it('grants each due month once even when several instances run the job at the same time', async () => {
    const { id } = await subscriber();
    t.clock.advance(32 * DAY);
    await Promise.all([
      renewDueSubscriptions(deps),
      renewDueSubscriptions(deps),
      renewDueSubscriptions(deps),
    ]);
    expect(await creditsOf(id)).toBe(5 + 2 * PRO_MONTH);
  });

  it('catches up a month per pass after a long stop, never granting a period twice', async () => {
    const { id } = await subscriber();
    t.clock.advance(95 * DAY);
    for (let pass = 0; pass < 5; pass += 1) await renewDueSubscriptions(deps);
    expect(await creditsOf(id)).toBe(5 + 4 * PRO_MONTH);
    expect((await subscriptionOf(id))!.nextRenewalDate.getTime()).toBeGreaterThan(t.clock.now().getTime());
  });
});

describe('cancel', () => {
  it('stops renewals and keeps every credit already granted', async () => {
    const { client, id } = await subscriber();
    const res = await client.post('/api/credits/subscription/cancel');
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({ status: 'cancelled', planName: 'Pro' });
    expect((await client.get('/api/credits/subscription')).json()).toEqual({ subscription: null });
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
    t.clock.advance(40 * DAY);
    await renewDueSubscriptions(deps);
    expect(await creditsOf(id)).toBe(5 + PRO_MONTH);
  });

  it('answers 404 when there is no active plan, and a new plan can be bought after cancelling', async () => {
    const { client } = await subscriber();
    expect((await client.post('/api/credits/subscription/cancel')).statusCode).toBe(200);
    const again = await client.post('/api/credits/subscription/cancel');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND' });
    const next = await client.post('/api/credits/purchase', PURCHASES.businessMonthly);
    expect(next.statusCode).toBe(200);
    expect((await client.get('/api/credits/subscription')).json().subscription).toMatchObject({
      planName: 'Business',
      bonusCredits: 60,
    });
  });

  it('needs a session', async () => {
    const { client } = await subscriber();
    await client.post('/api/auth/signout');
    expect((await client.post('/api/credits/subscription/cancel')).statusCode).toBe(401);
    expect((await client.get('/api/credits/subscription')).statusCode).toBe(401);
  });
});

describe('Stripe webhook with the demo provider', () => {
  it('answers 503 and grants nothing', async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/payments/stripe/webhook', { id: 'evt_1', type: 'invoice.paid' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'NOT_CONFIGURED' });
    expect(await creditsOf(id)).toBe(5);
  });
});
