import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TInsights } from '#shared/contract/insights.js';
import {
  adminAuditLogs,
  creditTransactions,
  insightLedgerDayTotals,
  insightRunDayTotals,
  insightLedgerDays,
  insightRunDays,
  insightTallyMark,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { addSurveyWorkflow, useAdminApp } from '#server/test/test-data.js';
import { applyLedgerEntry, type LedgerEntry } from '../credits/ledger.js';
import { EXPORT_BATCH_ROWS } from './exports.js';
import { migrationStatements } from '#server/test/migrations.js';
import { firstOpenDay, retallyAll, tallyClosedDays, tallyMark } from './insight-tallies.js';
import { getInsights, type InsightsSource } from './insights.js';

const { t, admin, adminId } = useAdminApp();

/** The CSV's data lines (BOM and header aside), split into cells (no cell in these tests holds a comma). */
function csvRows(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const lines = body.slice(1).split('\r\n');
  expect(lines.pop()).toBe('');
  return lines.slice(1).map((l) => l.split(','));
}

let workflowA: string;
let workflowB: string;
const people: Array<{ id: string; email: string }> = [];
const runIds: Record<string, string> = {};

/** A run written as it would stand once ended, at a fixed instant (the periods below are in March 2026). */
async function run(
  name: string,
  who: number,
  workflowId: string,
  at: string,
  origin = 'web',
  status = 'completed',
) {
  const id = randomUUID();
  runIds[name] = id;
  // Raw SQL: the origin is compared as text, and `test` (an admin's test run) may not be a listed origin yet.
  await t.database.db.execute(
    sql`insert into workflow_executions (id, workflow_id, user_id, status, origin, credits_used, created_at)
        values (${id}, ${workflowId}, ${people[who]!.id}, ${status}, ${origin}, 1, ${at}::timestamptz)`,
  );
}

async function ledger(entry: Omit<LedgerEntry, 'userId'> & { who: number; at: string }) {
  const { who, at, ...rest } = entry;
  const id = randomUUID();
  await t.database.db.transaction(async (tx) => {
    const balance = await applyLedgerEntry(tx, { ...rest, id, userId: people[who]!.id }, t.deps.metrics);
    expect(balance).not.toBeNull();
  });
  await t.database.db
    .update(creditTransactions)
    .set({ createdAt: new Date(at) })
    .where(eq(creditTransactions.id, id));
}

beforeAll(async () => {
  for (let i = 0; i < 3; i++) people.push(await signUpUser(t));
  workflowA = (
    await addSurveyWorkflow(t.database.db, adminId(), { name: { es: 'Informe A', en: 'Report A' } })
  ).id;
  workflowB = (
    await addSurveyWorkflow(t.database.db, adminId(), { name: { es: 'Informe B', en: 'Report B' } })
  ).id;
  const doomed = (await addSurveyWorkflow(t.database.db, adminId())).id;

  // Until the test origin is one of RUN_ORIGINS (issue 26, test runs) the check refuses it; insights must
  // already leave such runs out, so this file's database takes it.
  await t.database.db.execute(
    sql`alter table workflow_executions drop constraint if exists executions_origin_valid`,
  );
  await run('a1', 0, workflowA, '2026-03-02T10:05:00Z');
  await run('a2', 0, workflowA, '2026-03-02T10:40:00Z', 'api', 'failed');
  await run('a3', 1, workflowA, '2026-03-02T11:00:00Z');
  await run('test', 2, workflowA, '2026-03-02T11:30:00Z', 'test');
  await run('b1', 2, workflowB, '2026-03-03T09:00:00Z', 'schedule');
  await run('lastInstant', 1, workflowA, '2026-03-31T23:59:59.999Z');
  await run('nextMonth', 0, workflowA, '2026-04-01T00:00:00Z');
  await run('monthBefore', 0, workflowA, '2026-02-28T23:59:59Z');

  // Purchases first, so every charge below has credits to take.
  await ledger({
    who: 0,
    at: '2026-03-05T12:00:00Z',
    amount: 30,
    type: 'purchase',
    usdAmount: '12.00',
    planName: 'Pro',
  });
  await ledger({
    who: 1,
    at: '2026-03-05T13:00:00Z',
    amount: 10,
    type: 'purchase',
    usdAmount: '5.00',
    planName: 'Starter',
  });
  await ledger({
    who: 2,
    at: '2026-03-20T08:00:00Z',
    amount: 30,
    type: 'purchase',
    usdAmount: '12.00',
    planName: 'Pro',
  });
  await ledger({ who: 2, at: '2026-03-20T08:00:00Z', amount: 3, type: 'bonus', planName: 'Pro' });
  await ledger({
    who: 0,
    at: '2026-03-02T10:05:00Z',
    amount: -2,
    type: 'usage',
    workflowId: workflowA,
    executionId: runIds.a1,
  });
  await ledger({
    who: 1,
    at: '2026-03-02T11:00:00Z',
    amount: -1,
    type: 'usage',
    workflowId: workflowA,
    executionId: runIds.a3,
  });
  await ledger({
    who: 0,
    at: '2026-03-02T10:41:00Z',
    amount: -1,
    type: 'usage',
    workflowId: workflowA,
    executionId: runIds.a2,
  });
  await ledger({
    who: 0,
    at: '2026-03-02T10:50:00Z',
    amount: 1,
    type: 'refund',
    workflowId: workflowA,
    executionId: runIds.a2,
  });
  await ledger({
    who: 2,
    at: '2026-03-03T09:00:00Z',
    amount: -3,
    type: 'usage',
    workflowId: workflowB,
    executionId: runIds.b1,
  });
  await ledger({ who: 2, at: '2026-03-04T09:00:00Z', amount: -2, type: 'usage', workflowId: doomed });
  await ledger({ who: 1, at: '2026-04-01T00:00:00Z', amount: -1, type: 'usage', workflowId: workflowA });
  await ledger({
    who: 1,
    at: '2026-03-06T00:00:00Z',
    amount: -1,
    type: 'admin_adjustment',
    notes: '=HYPERLINK("x")',
  });
  // The rows above are dated in past days, which the app never writes: tally those days as the job would
  // have once each was over (the migration's backfill does the same), then delete a tallied workflow.
  await retallyAll(t.database.db, new Date());
  // The ledger keeps a deleted workflow's rows, without the workflow (and so do the tallies).
  await t.database.db.delete(userWorkflows).where(eq(userWorkflows.id, doomed));
});

async function insights(query: string): Promise<TInsights> {
  const res = await admin.get(`/api/admin/insights?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TInsights;
}

describe('GET /api/admin/insights', () => {
  it('adds up a month: runs without test runs, distinct customers, charges, refunds and purchases by plan', async () => {
    const m = await insights('period=month&date=2026-03-15');
    expect(m).toMatchObject({ period: 'month', from: '2026-03-01', to: '2026-03-31', bucket: 'day' });
    expect(m.totals).toEqual({
      runs: 5,
      customers: 3,
      creditsCharged: 9,
      creditsRefunded: 1,
      netCredits: 8,
      purchases: { purchases: 3, credits: 70, usd: '29.00' },
    });
    expect(m.purchasesByPlan).toEqual([
      { planName: 'Pro', purchases: 2, credits: 60, usd: '24.00' },
      { planName: 'Starter', purchases: 1, credits: 10, usd: '5.00' },
    ]);
    expect(m.workflows).toEqual([
      {
        workflow: { id: workflowA, name: { es: 'Informe A', en: 'Report A' } },
        runs: 4,
        customers: 2,
        creditsCharged: 4,
        creditsRefunded: 1,
        netCredits: 3,
      },
      {
        workflow: { id: workflowB, name: { es: 'Informe B', en: 'Report B' } },
        runs: 1,
        customers: 1,
        creditsCharged: 3,
        creditsRefunded: 0,
        netCredits: 3,
      },
      { workflow: null, runs: 0, customers: 0, creditsCharged: 2, creditsRefunded: 0, netCredits: 2 },
    ]);
    expect(m.workflowsTotal).toBe(3);
    expect(m.series).toHaveLength(31);
    expect(m.series[0]!.start).toBe('2026-03-01');
    expect(m.series.find((p) => p.start === '2026-03-02')).toEqual({
      start: '2026-03-02',
      runs: 3,
      customers: 2,
      creditsCharged: 4,
      creditsRefunded: 1,
      netCredits: 3,
      purchaseCredits: 0,
      purchaseUsd: '0.00',
    });
    expect(m.series.find((p) => p.start === '2026-03-05')).toMatchObject({
      purchaseCredits: 40,
      purchaseUsd: '17.00',
    });
    expect(m.series.find((p) => p.start === '2026-03-31')).toMatchObject({ runs: 1, customers: 1 });
    // Every bar adds up to the totals.
    expect(m.series.reduce((s, p) => s + p.runs, 0)).toBe(m.totals.runs);
    expect(m.series.reduce((s, p) => s + p.netCredits, 0)).toBe(m.totals.netCredits);
  });

  it('shows a day by the hour and a week from Monday to Sunday', async () => {
    const day = await insights('period=day&date=2026-03-02');
    expect(day).toMatchObject({ from: '2026-03-02', to: '2026-03-02', bucket: 'hour' });
    expect(day.series).toHaveLength(24);
    expect(day.series.find((p) => p.start === '2026-03-02T10')).toMatchObject({
      runs: 2,
      customers: 1,
      netCredits: 2,
    });
    expect(day.series.find((p) => p.start === '2026-03-02T11')).toMatchObject({ runs: 1, customers: 1 });
    expect(day.totals).toMatchObject({ runs: 3, customers: 2 });

    // 2026-03-04 is a Wednesday.
    const week = await insights('period=week&date=2026-03-04');
    expect(week).toMatchObject({ from: '2026-03-02', to: '2026-03-08', bucket: 'day' });
    expect(week.series.map((p) => p.start)).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
    ]);
    expect(week.totals.runs).toBe(4);
  });

  it('narrows to one workflow (purchases then belong to none) and takes a custom range in weeks', async () => {
    const one = await insights(`period=month&date=2026-03-01&workflowId=${workflowA}`);
    expect(one.totals).toEqual({
      runs: 4,
      customers: 2,
      creditsCharged: 4,
      creditsRefunded: 1,
      netCredits: 3,
      purchases: { purchases: 0, credits: 0, usd: '0.00' },
    });
    expect(one.purchasesByPlan).toEqual([]);
    expect(one.workflows.map((w) => w.workflow?.id)).toEqual([workflowA]);

    const year = await insights('period=custom&from=2026-01-01&to=2026-12-31');
    expect(year.bucket).toBe('week');
    // 2025-12-29 is the Monday of the week that holds 2026-01-01.
    expect(year.series[0]!.start).toBe('2025-12-29');
    expect(year.totals.runs).toBe(7);
    expect(year.series.reduce((s, p) => s + p.runs, 0)).toBe(7);
  });

  it('refuses a backwards, too long or missing custom range in the reader language', async () => {
    const long = await admin.get('/api/admin/insights?period=custom&from=2025-01-01&to=2026-01-02', {
      'accept-language': 'es',
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'VALIDATION_ERROR', key: 'dateRange' });
    expect(long.json().error).toContain('366 días');
    const backwards = await admin.get('/api/admin/insights?period=custom&from=2026-03-02&to=2026-03-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toContain('366 days');
    expect((await admin.get('/api/admin/insights?period=custom&from=2026-03-02')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/insights?period=day&date=2026-02-30')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/insights?period=year')).statusCode).toBe(400);
  });
});

describe('daily tallies', () => {
  const read = (query: Parameters<typeof getInsights>[1], source: InsightsSource) =>
    getInsights(t.database.db, query, new Date('2026-11-28T12:00:00Z'), source);
  const periods = (): Array<Parameters<typeof getInsights>[1]> => [
    { period: 'month', date: '2026-03-15' },
    { period: 'week', date: '2026-03-04' },
    { period: 'custom', from: '2026-01-01', to: '2026-12-31' },
    { period: 'custom', from: '2026-03-02', to: '2026-04-01' },
    { period: 'month', date: '2026-03-15', workflowId: workflowA },
  ];

  it('give the same figures as the raw rows, whether the mark is before, inside or after the range', async () => {
    const queries = periods();
    // A customer of two workflows on one day: one customer of that day, whichever part of the tally counts it.
    await run('secondWorkflow', 1, workflowB, '2026-03-02T12:00:00Z');
    try {
      // The tallies end the night of 2026-03-03: a month reads two days from them and the rest from the rows.
      for (const now of ['2026-03-03T02:00:00Z', '2026-02-01T02:00:00Z', '2026-11-28T12:00:00Z']) {
        await retallyAll(t.database.db, new Date(now));
        for (const q of queries) expect(await read(q, 'tallies')).toEqual(await read(q, 'raw'));
      }
      const day = (await read(queries[0]!, 'tallies')).series.find((p) => p.start === '2026-03-02');
      expect(day).toMatchObject({ runs: 4, customers: 2 });
      expect(await tallyMark(t.database.db)).toBe('2026-11-28');
    } finally {
      await t.database.db.delete(workflowExecutions).where(eq(workflowExecutions.id, runIds.secondWorkflow!));
      await retallyAll(t.database.db, new Date('2026-11-28T12:00:00Z'));
    }
  });

  it('are moved on by the job only over days that are over, an hour after midnight', async () => {
    await retallyAll(t.database.db, new Date('2026-03-03T02:00:00Z'));
    const talliedRuns = async () =>
      Number(
        (await t.database.db.select({ n: sql<number>`coalesce(sum(runs), 0)` }).from(insightRunDays))[0]!.n,
      );
    // The month before's last run and the three of 2026-03-02 (the test run is left out).
    expect(await talliedRuns()).toBe(4);
    await tallyClosedDays(t.database.db, new Date('2026-03-04T00:30:00Z'));
    expect(await tallyMark(t.database.db)).toBe('2026-03-03');
    await tallyClosedDays(t.database.db, new Date('2026-03-05T01:00:00Z'));
    expect(await tallyMark(t.database.db)).toBe('2026-03-05');
    // A day is tallied once: running the job again (or on two instances) adds nothing.
    await tallyClosedDays(t.database.db, new Date('2026-03-05T01:00:00Z'));
    expect(await talliedRuns()).toBe(5);
    const month = { period: 'month', date: '2026-03-15' } as const;
    expect(await read(month, 'tallies')).toEqual(await read(month, 'raw'));
    expect((await read(month, 'tallies')).totals).toMatchObject({ runs: 5, customers: 3, netCredits: 8 });
    await retallyAll(t.database.db, new Date());
  });

  it('are backfilled by migrations 0035 to 0037 as the job tallies them', async () => {
    const backfill = [
      ...migrationStatements('0035_insight_tallies.sql', 'INSERT INTO'),
      ...migrationStatements('0036_insight_day_order.sql', 'INSERT INTO'),
      ...migrationStatements('0037_insight_run_day_totals.sql', 'INSERT INTO'),
    ];
    // The mark (the day the migration ran, less an hour), the two tallies, the ledger's summed over workflows
    // and the runs' summed per day.
    expect(backfill).toHaveLength(5);
    const tallied = await Promise.all(periods().map((q) => read(q, 'tallies')));
    await t.database.db.transaction(async (tx) => {
      await tx.delete(insightRunDays);
      await tx.delete(insightRunDayTotals);
      await tx.delete(insightLedgerDays);
      await tx.delete(insightLedgerDayTotals);
      await tx.delete(insightTallyMark);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
    });
    expect(await tallyMark(t.database.db)).toBe(firstOpenDay(new Date()));
    expect(await Promise.all(periods().map((q) => read(q, 'tallies')))).toEqual(tallied);
    expect(await t.database.db.$count(insightLedgerDays)).toBeGreaterThan(0);
    expect(await t.database.db.$count(insightLedgerDayTotals)).toBeGreaterThan(0);
    expect(await t.database.db.$count(insightRunDayTotals)).toBeGreaterThan(0);
  });
});

describe('CSV exports', () => {
  const audits = () =>
    t.database.db.select().from(adminAuditLogs).where(eq(adminAuditLogs.actionType, 'data_exported'));

  it('streams the runs of a range, oldest first, with the run list filters, and audits the download', async () => {
    const before = (await audits()).length;
    const res = await admin.get('/api/admin/exports/runs?from=2026-03-01&to=2026-03-31');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('flujo-runs-2026-03-01-2026-03-31.csv');
    const [header] = res.body.slice(1).split('\r\n');
    expect(header).toBe(
      'id,created_at,completed_at,status,origin,workflow_id,workflow_name_en,workflow_name_es,user_id,user_email,credits_used,execution_time_ms,error_code,error_message,output_type',
    );
    const rows = csvRows(res.body);
    // The list shows every origin, test runs included; the export is the list's rows.
    expect(rows.map((r) => r[0])).toEqual(
      ['a1', 'a2', 'a3', 'test', 'b1', 'lastInstant'].map((name) => runIds[name]),
    );
    expect(rows[0]).toEqual(
      expect.arrayContaining([
        '2026-03-02T10:05:00.000Z',
        'completed',
        'web',
        'Report A',
        'Informe A',
        people[0]!.email,
      ]),
    );

    const api = csvRows(
      (await admin.get('/api/admin/exports/runs?from=2026-03-01&to=2026-03-31&origin=api')).body,
    );
    expect(api.map((r) => r[0])).toEqual([runIds.a2]);
    const failed = csvRows(
      (await admin.get('/api/admin/exports/runs?from=2026-03-01&to=2026-03-31&status=failed')).body,
    );
    expect(failed.map((r) => r[0])).toEqual([runIds.a2]);
    const byPerson = csvRows(
      (
        await admin.get(
          `/api/admin/exports/runs?from=2026-03-01&to=2026-04-30&q=${encodeURIComponent(people[1]!.email)}`,
        )
      ).body,
    );
    expect(byPerson.map((r) => r[0])).toEqual([runIds.a3, runIds.lastInstant]);

    const logged = await audits();
    expect(logged).toHaveLength(before + 4);
    expect(logged.at(-1)).toMatchObject({ targetType: 'export', targetId: 'runs' });
    expect(logged.find((a) => (a.details as { origin?: string }).origin === 'api')?.details).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-31',
      origin: 'api',
    });
  });

  it('exports ledger rows with the type filter, and defuses a formula in a text cell', async () => {
    const purchases = csvRows(
      (await admin.get('/api/admin/exports/ledger?from=2026-03-01&to=2026-03-31&type=purchase')).body,
    );
    expect(purchases.map((r) => [r[2], r[3], r[4], r[5]])).toEqual([
      ['purchase', '30', '12.00', 'Pro'],
      ['purchase', '10', '5.00', 'Starter'],
      ['purchase', '30', '12.00', 'Pro'],
    ]);
    const adjustments = await admin.get(
      '/api/admin/exports/ledger?from=2026-03-06&to=2026-03-06&type=admin_adjustment',
    );
    // The quotes of the note are doubled inside a quoted cell; the leading = is escaped with a quote.
    expect(adjustments.body).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('refuses a bad range and then writes no audit row', async () => {
    const before = (await audits()).length;
    const res = await admin.get('/api/admin/exports/ledger?from=2026-03-02&to=2026-03-01', {
      'accept-language': 'es',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'dateRange' });
    expect(res.json().error).toContain('días');
    expect((await admin.get('/api/admin/exports/runs?from=2026-03-02')).statusCode).toBe(400);
    expect(
      (await admin.get('/api/admin/exports/runs?from=2026-03-01&to=2026-03-02&status=lost')).statusCode,
    ).toBe(400);
    expect(await audits()).toHaveLength(before);
  });

  it('streams a range larger than several pages, every row once, even when they share one instant', async () => {
    const count = EXPORT_BATCH_ROWS * 2 + 37;
    // All at one microsecond instant: the pages must break the tie by id, or rows would repeat or vanish.
    await t.database.db.execute(
      sql`insert into workflow_executions (workflow_id, user_id, status, origin, created_at)
          select ${workflowB}, ${people[0]!.id}, 'completed', 'web', '2026-05-10T12:00:00.123456Z'::timestamptz
            from generate_series(1, ${count})`,
    );
    const res = await admin.get('/api/admin/exports/runs?from=2026-05-10&to=2026-05-10');
    const ids = csvRows(res.body).map((r) => r[0]);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    const stored = await t.database.db
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(sql`${workflowExecutions.createdAt} = '2026-05-10T12:00:00.123456Z'::timestamptz`)
      .orderBy(workflowExecutions.id);
    expect(ids).toEqual(stored.map((r) => r.id));
  });
});
