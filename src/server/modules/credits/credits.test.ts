import { useTestApp } from '#server/test/harness.js';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TUserTransaction } from '#shared/contract/credits.js';
import {
  creditTransactions,
  idempotencyKeys,
  subscriptions,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { signUpUser, TestClient, type TestClient as Client } from '#server/test/client.js';
import { applyLedgerEntry } from './ledger.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';
import { PURCHASES } from './testing/purchases.js';

const t = useTestApp();

const balance = async (client: Client) => (await client.get('/api/auth/me')).json().credits as number;
const history = async (client: Client, query = '') => {
  const res = await client.get(`/api/credits/transactions${query}`);
  expect(res.statusCode).toBe(200);
  return { rows: res.json() as TUserTransaction[], total: Number(res.headers['x-total-count']) };
};
const ledgerCount = async (userId: string) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
  )[0]?.n;

describe('transaction history', () => {
  it('needs a session', async () => {
    const res = await new TestClient(t).get('/api/credits/transactions');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('shows a new account its sign-up bonus only, in the user view shape', async () => {
    const { client } = await signUpUser(t);
    const { rows, total } = await history(client);
    expect(total).toBe(1);
    expect(rows).toEqual([
      {
        id: expect.any(String),
        transaction_type: 'bonus',
        amount: 5,
        notes: 'Sign-up bonus',
        note_kind: 'signup_bonus',
        note_params: {},
        workflow_name: null,
        workflow_deleted: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        usd_amount: null,
        plan_name: null,
        execution_id: null,
      },
    ]);
  });

  it('never shows another user their rows', async () => {
    const a = await signUpUser(t);
    const b = await signUpUser(t);
    await a.client.post('/api/credits/purchase', PURCHASES.proPack);
    const { rows } = await history(b.client);
    expect(rows.map((r) => r.transaction_type)).toEqual(['bonus']);
  });

  it('filters by type, pages newest first and counts every match in X-Total-Count', async () => {
    const { client, id } = await signUpUser(t);
    for (const pack of [PURCHASES.starterPack, PURCHASES.proPack, PURCHASES.businessPack]) {
      expect((await client.post('/api/credits/purchase', pack)).statusCode).toBe(200);
    }
    await t.database.db.transaction((tx) =>
      applyLedgerEntry(
        tx,
        { userId: id, amount: -3, type: 'admin_adjustment', notes: 'Correction' },
        t.deps.metrics,
      ),
    );

    const all = await history(client);
    expect(all.total).toBe(5);
    expect(all.rows[0]).toMatchObject({ transaction_type: 'admin_adjustment', amount: -3 });
    const times = all.rows.map((r) => Date.parse(r.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const purchases = await history(client, '?type=purchase');
    expect(purchases.total).toBe(3);
    expect(purchases.rows.map((r) => r.plan_name)).toEqual(['Business', 'Pro', 'Starter']);
    expect(purchases.rows[0]).toMatchObject({ amount: 100, usd_amount: '35.00' });

    const bonuses = await history(client, '?type=bonus');
    expect(bonuses.rows.map((r) => r.amount)).toEqual([5]);
    expect((await history(client, '?type=usage')).total).toBe(0);

    const page = await history(client, '?limit=2&offset=1');
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(1, 3).map((r) => r.id));
  });

  it.each([['?type=refund'], ['?type=all'], ['?limit=0'], ['?limit=1000'], ['?offset=-1'], ['?limit=abc']])(
    'refuses the query %s with 400',
    async (query) => {
      const { client } = await signUpUser(t);
      const res = await client.get(`/api/credits/transactions${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    },
  );

  it('names the workflow of a run, and says "deleted" once the workflow is gone', async () => {
    const { client, id } = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t), {
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    await t.database.db.transaction((tx) =>
      applyLedgerEntry(
        tx,
        { userId: id, amount: -1, type: 'usage', workflowId: wf.id, notes: 'Run' },
        t.deps.metrics,
      ),
    );
    const before = await history(client, '?type=usage');
    expect(before.rows[0]).toMatchObject({
      workflow_name: { es: 'Resumen', en: 'Summary' },
      workflow_deleted: false,
      amount: -1,
    });
    await t.database.db.delete(userWorkflows).where(eq(userWorkflows.id, wf.id));
    const after = await history(client, '?type=usage');
    expect(after.rows[0]).toMatchObject({ workflow_name: null, workflow_deleted: true, amount: -1 });
  });

  it("links a run's charge and refund to that run while it exists, and to nobody else's run", async () => {
    const { client, id } = await signUpUser(t);
    const other = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t), {
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    const [run] = await t.database.db
      .insert(workflowExecutions)
      .values({ workflowId: wf.id, userId: id, status: 'failed', creditsUsed: 1 })
      .returning();
    const [othersRun] = await t.database.db
      .insert(workflowExecutions)
      .values({ workflowId: wf.id, userId: other.id, status: 'completed', creditsUsed: 1 })
      .returning();
    await t.database.db.transaction(async (tx) => {
      const run1 = { userId: id, workflowId: wf.id, executionId: run!.id };
      await applyLedgerEntry(
        tx,
        { ...run1, amount: -1, type: 'usage', noteKind: 'workflow_run' },
        t.deps.metrics,
      );
      await applyLedgerEntry(
        tx,
        { ...run1, amount: 1, type: 'refund', noteKind: 'refund_run_failed' },
        t.deps.metrics,
      );
      // A row that names someone else's run (never written by the app) must not lead to that run.
      await applyLedgerEntry(
        tx,
        { userId: id, workflowId: wf.id, executionId: othersRun!.id, amount: -1, type: 'admin_adjustment' },
        t.deps.metrics,
      );
    });
    const { rows } = await history(client);
    // Rows written in one transaction share their time: compare them by type.
    expect(Object.fromEntries(rows.map((r) => [r.transaction_type, r.execution_id]))).toEqual({
      admin_adjustment: null,
      refund: run!.id,
      usage: run!.id,
      bonus: null,
    });
    await t.database.db.delete(workflowExecutions).where(eq(workflowExecutions.id, run!.id));
    const after = await history(client, '?type=usage');
    expect(after.rows[0]).toMatchObject({ amount: -1, execution_id: null });
  });
});

describe('plans', () => {
  it('lists the plan catalogue with the demo provider', async () => {
    const { client } = await signUpUser(t);
    const res = await client.get('/api/credits/plans');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('demo');
    const summary = body.plans.map(
      (p: { type: string; name: string; credits: number; priceUsd: number; highlighted: boolean }) =>
        `${p.type} ${p.name} ${p.credits} $${p.priceUsd}${p.highlighted ? ' *' : ''}`,
    );
    expect(summary).toEqual([
      'unique Starter 10 $5',
      'unique Pro 30 $12',
      'unique Business 100 $35 *',
      'unique Growth 250 $75',
      'unique Enterprise 1000 $250',
      'monthly Starter 20 $8',
      'monthly Pro 60 $20',
      'monthly Business 200 $60 *',
      'monthly Enterprise 800 $200',
      'offer Starter 10 $5',
      'offer Pro 50 $20 *',
      'offer Enterprise 300 $100',
    ]);
    expect(
      body.plans.find((p: { type: string; id: string }) => p.type === 'monthly' && p.id === 'enterprise'),
    ).toMatchObject({ bonusPercent: 50, bonusCredits: 400 });
  });
});

describe('purchases (demo provider)', () => {
  it('grants a one-time pack at once with its price and plan name in the history', async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', PURCHASES.proPack);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'completed',
      provider: 'demo',
      planName: 'Pro',
      type: 'unique',
      creditsGranted: 30,
      balance: 35,
    });
    expect(await balance(client)).toBe(35);
    const { rows } = await history(client, '?type=purchase');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount: 30,
      usd_amount: '12.00',
      plan_name: 'Pro',
      notes: 'Pro credit pack',
      note_kind: 'credit_pack',
      note_params: { plan: 'Pro' },
    });
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).toEqual([]);
  });

  it.each([
    ['Starter', PURCHASES.starterOffer, 10, 0],
    ['Pro', PURCHASES.proOffer, 50, 5],
    ['Enterprise', PURCHASES.enterpriseOffer, 300, 30],
  ])(
    "sells the account page's %s card as shown: its credits, its bonus, its price",
    async (name, offer, credits, bonus) => {
      const { client, id } = await signUpUser(t);
      const res = await client.post('/api/credits/purchase', offer);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'completed',
        provider: 'demo',
        planName: name,
        type: 'offer',
        creditsGranted: credits + bonus,
        balance: 5 + credits + bonus,
      });
      const { rows } = await history(client);
      const bought = rows.filter((r) => r.plan_name === name);
      expect(bought.find((r) => r.transaction_type === 'purchase')).toMatchObject({
        amount: credits,
        usd_amount: offer.usdAmount.toFixed(2),
        note_kind: 'account_offer',
        notes: `${name} offer`,
        execution_id: null,
      });
      expect(bought.filter((r) => r.transaction_type === 'bonus')).toEqual(
        bonus > 0 ? [expect.objectContaining({ amount: bonus, note_kind: 'account_offer_bonus' })] : [],
      );
      // Paid once: no monthly plan is opened.
      expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).toEqual(
        [],
      );
    },
  );

  it('opens a monthly plan: the credits as a purchase, the bonus (rounded down) as a bonus row', async () => {
    const { client } = await signUpUser(t);
    // Named in lower case: the plan is found all the same, and the answer names it as the catalogue does.
    const res = await client.post('/api/credits/purchase', {
      ...PURCHASES.starterMonthly,
      planName: 'starter',
    });
    expect(res.statusCode).toBe(200);
    // Starter: 20 credits + floor(20 * 10%) = 2.
    expect(res.json()).toMatchObject({
      creditsGranted: 22,
      balance: 27,
      type: 'monthly',
      planName: 'Starter',
    });
    const { rows } = await history(client);
    expect(
      rows
        .slice(0, 2)
        .map((r) => [r.transaction_type, r.amount, r.plan_name])
        .sort(),
    ).toEqual([
      ['bonus', 2, 'Starter'],
      ['purchase', 20, 'Starter'],
    ]);
    const sub = (await client.get('/api/credits/subscription')).json().subscription;
    expect(sub).toMatchObject({
      planName: 'Starter',
      creditsPerMonth: 20,
      bonusCredits: 2,
      priceUsd: '8.00',
      status: 'active',
      provider: 'demo',
    });
    const days = (Date.parse(sub.nextRenewalDate) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
  });

  it('refuses a second monthly plan while one is active (409) and grants nothing', async () => {
    const { client, id } = await signUpUser(t);
    expect((await client.post('/api/credits/purchase', PURCHASES.proMonthly)).statusCode).toBe(200);
    const before = await balance(client);
    const res = await client.post('/api/credits/purchase', PURCHASES.businessMonthly);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await balance(client)).toBe(before);
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).toHaveLength(
      1,
    );
  });

  it.each([
    ['more credits than the plan', { ...PURCHASES.proPack, credits: 300 }],
    ['a lower price than the plan', { ...PURCHASES.proPack, usdAmount: 1.2 }],
    ['a plan that does not exist', { ...PURCHASES.proPack, planName: 'Platinum' }],
    ['a monthly price sent as a pack', { ...PURCHASES.proMonthly, type: 'unique' }],
    ['an unknown type', { ...PURCHASES.proPack, type: 'lifetime' }],
    ['negative credits', { ...PURCHASES.proPack, credits: -30 }],
    ['fractional credits', { ...PURCHASES.proPack, credits: 30.5 }],
    ['a missing plan name', { type: 'unique', credits: 30, usdAmount: 12 }],
    ["the Pro card's offer sent as the Pro pack", { ...PURCHASES.proOffer, type: 'unique' }],
    ["the Pro pack's price sent as the Pro card", { ...PURCHASES.proPack, type: 'offer' }],
    ['the Enterprise card with its bonus counted in', { ...PURCHASES.enterpriseOffer, credits: 330 }],
    ['a string price', { ...PURCHASES.proPack, usdAmount: '12' }],
  ])('refuses %s with 400 and changes nothing', async (_what, body) => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    expect(await balance(client)).toBe(5);
    expect(await ledgerCount(id)).toBe(1);
  });

  it.each([
    ['en', 'The Pro plan is 50 credits for $20'],
    ['es', 'El plan Pro son 50 créditos por $20'],
  ])("says in the reader's language (%s) what the Pro card really costs", async (language, message) => {
    const { client } = await signUpUser(t);
    const res = await client.post(
      '/api/credits/purchase',
      { ...PURCHASES.proOffer, usdAmount: 12 },
      { 'accept-language': language },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
    expect(await balance(client)).toBe(5);
  });

  it('refuses malformed JSON with 400', async () => {
    const { client } = await signUpUser(t);
    const res = await client.request('POST', '/api/credits/purchase', '{"type":', {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(400);
    expect(await balance(client)).toBe(5);
  });

  it('needs a session and a same-site origin', async () => {
    expect((await new TestClient(t).post('/api/credits/purchase', PURCHASES.proPack)).statusCode).toBe(401);
    const { client } = await signUpUser(t);
    const res = await client.post('/api/credits/purchase', PURCHASES.proPack, {
      origin: 'https://evil.example',
    });
    expect(res.statusCode).toBe(403);
    expect(await balance(client)).toBe(5);
  });
});

describe('Idempotency-Key', () => {
  it('answers a replay with the first answer and grants nothing twice', async () => {
    const { client, id } = await signUpUser(t);
    const headers = { 'idempotency-key': 'purchase-key-0001' };
    const first = await client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    const again = await client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(client)).toBe(35);
    expect(await ledgerCount(id)).toBe(2);
  });

  it('refuses the same key for a different purchase with 409 and grants nothing', async () => {
    const { client } = await signUpUser(t);
    const headers = { 'idempotency-key': 'purchase-key-0002' };
    await client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    const res = await client.post('/api/credits/purchase', PURCHASES.starterPack, headers);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await balance(client)).toBe(35);
  });

  it('grants once for concurrent double clicks with one key', async () => {
    const { client, id } = await signUpUser(t);
    const headers = { 'idempotency-key': 'double-click-0003' };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => client.post('/api/credits/purchase', PURCHASES.proMonthly, headers)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    // Pro monthly: 60 + floor(60 * 20%) = 72.
    expect(await balance(client)).toBe(5 + 72);
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).toHaveLength(
      1,
    );
  });

  it('opens one plan when two monthly purchases with different keys race', async () => {
    const { client, id } = await signUpUser(t);
    const [a, b] = await Promise.all([
      client.post('/api/credits/purchase', PURCHASES.proMonthly, { 'idempotency-key': 'race-key-a-0006' }),
      client.post('/api/credits/purchase', PURCHASES.starterMonthly, {
        'idempotency-key': 'race-key-b-0006',
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? a.json() : b.json();
    expect(await balance(client)).toBe(5 + winner.creditsGranted);
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).toHaveLength(
      1,
    );
  });

  it('keeps keys per user: the same key from another user is a separate purchase', async () => {
    const a = await signUpUser(t);
    const b = await signUpUser(t);
    const headers = { 'idempotency-key': 'shared-key-0004' };
    await a.client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    const res = await b.client.post('/api/credits/purchase', PURCHASES.proPack, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ balance: 35 });
    expect(await balance(b.client)).toBe(35);
  });

  it('stores no key for a refused purchase, so the key can be used once it is fixed', async () => {
    const { client, id } = await signUpUser(t);
    const headers = { 'idempotency-key': 'fixable-key-0005' };
    expect(
      (await client.post('/api/credits/purchase', { ...PURCHASES.proPack, credits: 31 }, headers)).statusCode,
    ).toBe(400);
    expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, id))).toEqual(
      [],
    );
    expect((await client.post('/api/credits/purchase', PURCHASES.proPack, headers)).statusCode).toBe(200);
  });

  it.each([['short'], ['has spaces in it'], ['x'.repeat(201)]])(
    'refuses the key "%s" with 400',
    async (key) => {
      const { client } = await signUpUser(t);
      const res = await client.post('/api/credits/purchase', PURCHASES.proPack, { 'idempotency-key': key });
      expect(res.statusCode).toBe(400);
      expect(await balance(client)).toBe(5);
    },
  );
});
