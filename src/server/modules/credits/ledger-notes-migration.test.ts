import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions } from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { migrationUpdates } from '#server/test/migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The data part of the migration that introduced note kinds: its UPDATE statements. */
const updates = migrationUpdates('0009_ledger_note_kinds.sql');

describe('ledger notes written before kinds', () => {
  it('become kinds and params; an admin reason and unknown texts keep their text', async () => {
    const { id } = await signUpUser(t);
    const legacy: Array<[(typeof creditTransactions.$inferInsert)['transactionType'], string]> = [
      ['bonus', 'Sign-up bonus'],
      ['usage', 'Workflow run'],
      ['refund', 'Refund: the run failed'],
      ['refund', 'Refund: the run expired'],
      ['refund', 'Refund: the workflow was deleted before the run ended'],
      ['purchase', 'Pro credit pack'],
      ['purchase', 'Starter monthly plan: first month'],
      ['purchase', 'Business Plus monthly plan renewal'],
      ['bonus', 'Starter monthly plan bonus (15%)'],
      ['admin_adjustment', 'Launch promo'],
      ['bonus', 'Christmas gift'],
    ];
    const base = Date.parse('2026-01-01T00:00:00Z');
    await t.database.db.insert(creditTransactions).values(
      legacy.map(([transactionType, notes], i) => ({
        userId: id,
        amount: 0,
        transactionType,
        notes,
        createdAt: new Date(base + i * 1000),
      })),
    );
    expect(updates).toHaveLength(10);
    for (const statement of updates) await t.database.db.execute(sql.raw(statement));

    const rows = await t.database.db
      .select({
        kind: creditTransactions.noteKind,
        params: creditTransactions.noteParams,
        notes: creditTransactions.notes,
      })
      .from(creditTransactions)
      // The legacy rows only: they carry no credits, so the balance still matches the ledger.
      .where(and(eq(creditTransactions.userId, id), eq(creditTransactions.amount, 0)))
      .orderBy(asc(creditTransactions.createdAt));
    expect(rows).toEqual([
      { kind: 'signup_bonus', params: {}, notes: null },
      { kind: 'workflow_run', params: {}, notes: null },
      { kind: 'refund_run_failed', params: {}, notes: null },
      { kind: 'refund_run_expired', params: {}, notes: null },
      { kind: 'refund_workflow_deleted', params: {}, notes: null },
      { kind: 'credit_pack', params: { plan: 'Pro' }, notes: null },
      { kind: 'monthly_plan_first_month', params: { plan: 'Starter' }, notes: null },
      { kind: 'monthly_plan_renewal', params: { plan: 'Business Plus' }, notes: null },
      { kind: 'monthly_plan_bonus', params: { plan: 'Starter', percent: 15 }, notes: null },
      { kind: 'admin_adjustment', params: {}, notes: 'Launch promo' },
      { kind: 'other', params: {}, notes: 'Christmas gift' },
    ]);
  });
});
