import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminStats } from '#shared/contract/admin.js';
import { creditTransactions } from '#server/db/schema.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { applyLedgerEntry } from '../credits/ledger.js';

let t: TestApp;
let admin: TestClient;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  // The URL only tells the configuration this is a real deployment; the tests' own database is used.
  t = await buildTestApp({ DATABASE_URL: 'postgres://unused@127.0.0.1:1/none', PAYMENT_PROVIDER: 'demo' });
  admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/stats', () => {
  it('adds up a day of more than 2^31 credits granted and spent, exactly', async () => {
    // Each balance stays within its int column; the day's sums across accounts do not fit in one.
    const grant = 1_200_000_000;
    const spend = 1_100_000_000;
    const people = [await signUpUser(t), await signUpUser(t)];
    await t.database.db.transaction(async (tx) => {
      for (const person of people) {
        await applyLedgerEntry(
          tx,
          {
            userId: person.id,
            amount: grant,
            type: 'admin_adjustment',
            notes: 'big day',
          },
          t.deps.metrics,
        );
        await applyLedgerEntry(
          tx,
          { userId: person.id, amount: -spend, type: 'usage', notes: 'big day' },
          t.deps.metrics,
        );
      }
    });
    const bigDay = new Date(t.clock.now().getTime() - 2 * DAY);
    await t.database.db
      .update(creditTransactions)
      .set({ createdAt: bigDay })
      .where(eq(creditTransactions.notes, 'big day'));

    const res = await admin.get('/api/admin/stats');
    expect(res.statusCode).toBe(200);
    const stats = res.json() as TAdminStats;
    const day = stats.creditsPerDay.find((d) => d.date === bigDay.toISOString().slice(0, 10));
    expect(day).toEqual({ date: bigDay.toISOString().slice(0, 10), granted: 2 * grant, spent: 2 * spend });
    expect(2 * grant).toBeGreaterThan(2 ** 31);
    expect(2 * spend).toBeGreaterThan(2 ** 31);
    const [positive] = await t.database.db
      .select({ n: sql<string>`sum(amount)::bigint` })
      .from(creditTransactions)
      .where(sql`amount > 0`);
    expect(stats.totals.creditsDistributed).toBe(Number(positive?.n));
    expect(stats.totals.creditsDistributed).toBeGreaterThan(2 * grant);
    // The other days are still there and still zero-filled.
    expect(stats.creditsPerDay).toHaveLength(30);
  });

  it('tells admins when a real deployment grants purchases for free (PAYMENT_PROVIDER=demo on PostgreSQL)', async () => {
    const stats = (await admin.get('/api/admin/stats')).json() as TAdminStats;
    expect(stats.demoPayments).toBe(true);
  });
});
