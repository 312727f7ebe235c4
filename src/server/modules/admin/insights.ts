import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { TEST_RUN_ORIGIN } from '#shared/contract/executions.js';
import type { ZInsightsQuery } from '#shared/contract/insights.js';
import {
  INSIGHTS_MAX_WORKFLOWS,
  MAX_RANGE_DAYS,
  type INSIGHTS_BUCKETS,
  type TInsights,
} from '#shared/contract/insights.js';
import type { z } from 'zod';
import type { Db } from '#server/db/client.js';
import { queryRows, ts } from '#server/db/sql-helpers.js';
import { AppError } from '#server/lib/errors.js';
import {
  creditTransactions,
  insightLedgerDayTotals,
  insightLedgerDays,
  insightRunDays,
  insightRunDayTotals,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { tallyMark } from './insight-tallies.js';

const DAY_MS = 24 * 60 * 60 * 1000;
type Bucket = (typeof INSIGHTS_BUCKETS)[number];

/** A resolved range: its first day, the day after its last (exclusive end) and its chart's bar size. */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** `from`..`to` (both included) as instants, refused when backwards or longer than MAX_RANGE_DAYS. */
export function dayRange(from: string, to: string): DayRange {
  const start = msOf(from);
  const endInclusive = msOf(to);
  const days = (endInclusive - start) / DAY_MS + 1;
  if (days < 1 || days > MAX_RANGE_DAYS) {
    throw new AppError('VALIDATION_ERROR', { key: 'dateRange', params: { days: MAX_RANGE_DAYS } });
  }
  return { from, to, start: new Date(start), end: new Date(endInclusive + DAY_MS) };
}

/** The range a period names around `date` (UTC): its day, its ISO week, its month, or from..to. */
function periodRange(query: z.output<typeof ZInsightsQuery>, now: Date): DayRange {
  const anchor = msOf(query.date ?? dayOf(now.getTime()));
  const d = new Date(anchor);
  switch (query.period) {
    case 'day':
      return dayRange(dayOf(anchor), dayOf(anchor));
    case 'week': {
      const monday = anchor - ((d.getUTCDay() + 6) % 7) * DAY_MS;
      return dayRange(dayOf(monday), dayOf(monday + 6 * DAY_MS));
    }
    case 'month': {
      const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      const last = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY_MS;
      return dayRange(dayOf(first), dayOf(last));
    }
    case 'custom':
      if (!query.from || !query.to) {
        throw new AppError('VALIDATION_ERROR', { key: 'dateRange', params: { days: MAX_RANGE_DAYS } });
      }
      return dayRange(query.from, query.to);
  }
}

/** An hour for one day, a day up to about two months, a week (from Monday) beyond. */
function bucketFor(range: DayRange): Bucket {
  const days = (range.end.getTime() - range.start.getTime()) / DAY_MS;
  return days <= 1 ? 'hour' : days <= 62 ? 'day' : 'week';
}

/** Each bucket's key, oldest first, as bucketText writes them in SQL. */
function bucketKeys(range: DayRange, bucket: Bucket): string[] {
  const keys: string[] = [];
  const step = bucket === 'hour' ? DAY_MS / 24 : bucket === 'day' ? DAY_MS : 7 * DAY_MS;
  let t = range.start.getTime();
  if (bucket === 'week') t -= ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
  for (; t < range.end.getTime(); t += step) {
    keys.push(bucket === 'hour' ? new Date(t).toISOString().slice(0, 13) : dayOf(t));
  }
  return keys;
}

/**
 * The bucket of a timestamp (a raw row's): the start of its hour, day or week in UTC. The queries group by it and
 * write the few groups' keys with bucketText, not every row's.
 */
function bucketStart(at: SQL, bucket: Bucket): SQL {
  return sql`date_trunc(${sql.raw(`'${bucket}'`)}, ${at} at time zone 'UTC')`;
}

/** The bucket of a tallied day, as bucketStart gives it (a date needs no time zone; cheaper per row). */
function dayBucketStart(day: AnyPgColumn, bucket: Bucket): SQL {
  return bucket === 'week' ? sql`date_trunc('week', ${day}::timestamp)` : sql`${day}::timestamp`;
}

/** A bucket's start written as bucketKeys writes it. */
function bucketText(start: SQL, bucket: Bucket): SQL<string> {
  const format = bucket === 'hour' ? 'YYYY-MM-DD"T"HH24' : 'YYYY-MM-DD';
  return sql<string>`to_char(${start}, ${sql.raw(`'${format}'`)})`;
}

/**
 * Runs that count in insights: every origin but an admin's test runs. Written as SQL text so that it holds
 * before and after the test origin joins RUN_ORIGINS. The tallies leave them out the same way.
 */
const countedRun = sql`${workflowExecutions.origin} <> ${TEST_RUN_ORIGIN}`;

type Num = string | number | bigint;
/** A group of ledger moves: how many rows, their credits and their dollars. */
interface Sums {
  rows: Num;
  amount: Num;
  usd: string | null;
}
const n = (v: Num | null | undefined) => Number(v ?? 0);
/** Adds two decimal dollar strings exactly, in cents. */
const addUsd = (a: string, b: Num | null | undefined) => centsText(cents(a) + cents(String(b ?? '0')));
const cents = (usd: string) => Math.round(Number(usd) * 100);
const centsText = (c: number) => (c / 100).toFixed(2);

interface Figures {
  runs: number;
  customers: number;
  creditsCharged: number;
  creditsRefunded: number;
  netCredits: number;
}
const zero = (): Figures => ({ runs: 0, customers: 0, creditsCharged: 0, creditsRefunded: 0, netCredits: 0 });

/** Where the figures come from: the daily tallies for whole tallied days, or only the raw rows (tests). */
export type InsightsSource = 'tallies' | 'raw';

/**
 * The admin's insights for a period: runs, distinct customers, credits charged and refunded, purchases by
 * plan; in total, per bucket of the chart and per workflow (decisions 150, 166, 177). Five grouped reads, side
 * by side: runs with their distinct customers per bucket, per workflow and in total, and the ledger's usage,
 * refund and purchase rows per bucket and plan, and per workflow. Each reads the days before the tally mark from
 * the daily tallies and the rest of the range (today, and whatever the tally job has not reached) from the raw
 * rows through their created_at index; one chart bar of an hour needs the raw rows, so a single day reads them
 * all.
 */
export async function getInsights(
  db: Db,
  rawQuery: z.output<typeof ZInsightsQuery>,
  now: Date,
  source: InsightsSource = 'tallies',
): Promise<TInsights> {
  const range = periodRange(rawQuery, now);
  const bucket = bucketFor(range);
  const workflowId = rawQuery.workflowId ?? null;
  const endDay = dayOf(range.end.getTime());
  const mark = source === 'raw' || bucket === 'hour' ? null : await tallyMark(db);
  // The tallied part is [from, tallyEnd), the raw part [tallyEnd, end): the mark clamped into the range.
  const tallyEnd = mark === null || mark < range.from ? range.from : mark > endDay ? endDay : mark;
  const rawStart = new Date(msOf(tallyEnd));
  const inTallies = (day: AnyPgColumn) => sql`${day} >= ${range.from}::date and ${day} < ${tallyEnd}::date`;
  const rawRuns = and(
    gte(workflowExecutions.createdAt, sql`${ts(rawStart)}`),
    lt(workflowExecutions.createdAt, sql`${ts(range.end)}`),
    countedRun,
    workflowId ? eq(workflowExecutions.workflowId, workflowId) : undefined,
  );
  const talliedRuns = and(
    inTallies(insightRunDays.day),
    workflowId ? eq(insightRunDays.workflowId, workflowId) : undefined,
  );
  const types = (column: AnyPgColumn) =>
    workflowId ? inArray(column, ['usage', 'refund']) : inArray(column, ['usage', 'refund', 'purchase']);
  const rawLedger = and(
    gte(creditTransactions.createdAt, sql`${ts(rawStart)}`),
    lt(creditTransactions.createdAt, sql`${ts(range.end)}`),
    types(creditTransactions.transactionType),
    workflowId ? eq(creditTransactions.workflowId, workflowId) : undefined,
  );
  const talliedLedger = and(
    inTallies(insightLedgerDays.day),
    types(insightLedgerDays.transactionType),
    workflowId ? eq(insightLedgerDays.workflowId, workflowId) : undefined,
  );
  const e = workflowExecutions;
  const r = insightRunDays;
  const c = creditTransactions;
  const l = insightLedgerDays;
  const dayTotals = insightRunDayTotals;
  // The chart and the purchases by plan need no workflow: over all of them they read the ledger's tally summed
  // over workflows (a few rows a day); for one workflow, its own rows of the tally.
  const totalsTally = workflowId ? insightLedgerDays : insightLedgerDayTotals;
  const talliedTotals = workflowId
    ? talliedLedger
    : and(inTallies(insightLedgerDayTotals.day), types(insightLedgerDayTotals.transactionType));

  /** Counted runs, one row per run or per tallied (day, workflow, customer), as `raw` and `tallied` select them. */
  const runsOf = (raw: SQL, tallied: SQL) =>
    sql`select ${raw} from ${e} where ${rawRuns} union all select ${tallied} from ${r} where ${talliedRuns}`;
  /** The ledger's moves (usage, refund, purchase), one row per raw row or tallied group, with their keys. */
  const movesOf = (
    keys: { raw: SQL; tallied: (day: AnyPgColumn) => SQL },
    tally: typeof l | typeof insightLedgerDayTotals,
    where: SQL | undefined,
  ) =>
    sql`select ${keys.raw} as key, ${c.transactionType} as type, ${c.workflowId} as workflow_id,
               ${c.planName} as plan_name, 1 as rows, ${c.amount}::bigint as amount, ${c.usdAmount} as usd
          from ${c} where ${rawLedger}
        union all
        select ${keys.tallied(tally.day)}, ${tally.transactionType},
               ${'workflowId' in tally ? tally.workflowId : sql`null::uuid`}, ${tally.planName}, ${tally.rows},
               ${tally.amount}, ${tally.usdAmount}
          from ${tally} where ${where}`;
  const sums = sql`sum(rows) as rows, coalesce(sum(amount), 0)::bigint as amount, sum(usd)::text as usd`;

  // Five reads side by side (each its own connection on PostgreSQL): the runs and customers per bucket, per
  // workflow and in all, and the ledger per bucket and plan, and per workflow.
  const [bucketRuns, workflowRuns, [allRuns], bucketLedger, workflowLedger] = await Promise.all([
    queryRows<{ key: string; runs: Num; customers: Num }>(
      db,
      bucket === 'day'
        ? // The tally's days and the raw rows' days never meet (the raw rows begin where the tally ends), so each
          // part counts its own days' customers: over all workflows the tallied days' totals (a row a day), for
          // one workflow its rows of the tally, streamed out of the (day, customer) index.
          sql`${
            workflowId
              ? sql`select ${bucketText(sql`day`, bucket)} as key, sum(runs) as runs, count(*) as customers
                      from (select ${r.day} as day, ${r.userId}, sum(${r.runs}) as runs from ${r}
                             where ${talliedRuns} group by ${r.day}, ${r.userId}) tallied
                     group by day`
              : sql`select ${bucketText(sql`${dayTotals.day}::timestamp`, bucket)} as key, ${dayTotals.runs} as runs,
                           ${dayTotals.customers} as customers
                      from ${dayTotals} where ${inTallies(dayTotals.day)}`
          }
              union all
              select ${bucketText(sql`key`, bucket)}, sum(runs), count(*)
                from (select ${bucketStart(sql`${e.createdAt}`, bucket)} as key, ${e.userId}, count(*) as runs
                        from ${e} where ${rawRuns} group by 1, 2) raw
               group by key`
        : // A week may begin in the tally and end in the raw rows: its customers are counted over both at once.
          sql`select ${bucketText(sql`key`, bucket)} as key, sum(runs) as runs, count(*) as customers
                from (select key, user_id, sum(runs) as runs
                        from (${runsOf(
                          sql`${bucketStart(sql`${e.createdAt}`, bucket)} as key, ${e.userId} as user_id, 1 as runs`,
                          sql`${dayBucketStart(r.day, bucket)}, ${r.userId}, ${r.runs}`,
                        )}) counted
                       group by key, user_id) pairs
               group by key`,
    ),
    queryRows<{ workflow_id: string; runs: Num; customers: Num }>(
      db,
      sql`select workflow_id, sum(runs) as runs, count(*) as customers
            from (select workflow_id, user_id, sum(runs) as runs
                    from (${runsOf(
                      sql`${e.workflowId} as workflow_id, ${e.userId} as user_id, 1 as runs`,
                      sql`${r.workflowId}, ${r.userId}, ${r.runs}`,
                    )}) counted
                   group by workflow_id, user_id) pairs
           group by workflow_id`,
    ),
    queryRows<{ runs: Num; customers: Num }>(
      db,
      sql`select coalesce(sum(runs), 0) as runs, count(distinct user_id) as customers
            from (${runsOf(sql`${e.userId} as user_id, 1 as runs`, sql`${r.userId}, ${r.runs}`)}) counted`,
    ),
    queryRows<{ by_plan: number; key: string | null; type: string; plan_name: string | null } & Sums>(
      db,
      sql`select grouping(key) as by_plan, ${bucketText(sql`key`, bucket)} as key, type, plan_name, ${sums}
            from (${movesOf(
              {
                raw: bucketStart(sql`${c.createdAt}`, bucket),
                tallied: (day) => dayBucketStart(day, bucket),
              },
              totalsTally,
              talliedTotals,
            )}) moved
           group by grouping sets ((key, type), (plan_name, type))`,
    ),
    // Credits only: a workflow's row shows no counts of ledger rows nor dollars, and each numeric sum costs a
    // quarter of this read.
    queryRows<{ workflow_id: string | null; type: string; amount: Num }>(
      db,
      sql`select workflow_id, type, coalesce(sum(amount), 0)::bigint as amount
            from (${movesOf({ raw: sql`null`, tallied: () => sql`null` }, l, talliedLedger)}) moved
           where type <> 'purchase'
           group by workflow_id, type`,
    ),
  ]);

  const keys = bucketKeys(range, bucket);
  const series = new Map(
    keys.map((start) => [start, { start, ...zero(), purchaseCredits: 0, purchaseUsd: '0.00' }]),
  );
  const perWorkflow = new Map<string | null, Figures>();
  const workflowRow = (id: string | null) => {
    let row = perWorkflow.get(id);
    if (!row) perWorkflow.set(id, (row = zero()));
    return row;
  };
  const totals = {
    ...zero(),
    runs: n(allRuns?.runs),
    customers: n(allRuns?.customers),
    purchases: { purchases: 0, credits: 0, usd: '0.00' },
  };
  const plans = new Map<
    string | null,
    { planName: string | null; purchases: number; credits: number; usd: string }
  >();
  /** Usage rows are negative (the credits left the balance); refunds positive. */
  const addMoves = (target: Figures, type: string, amount: number) => {
    const charged = type === 'usage' ? -amount : 0;
    const refunded = type === 'refund' ? amount : 0;
    target.creditsCharged += charged;
    target.creditsRefunded += refunded;
    target.netCredits += charged - refunded;
  };

  for (const row of bucketRuns) {
    const point = series.get(row.key);
    if (point) Object.assign(point, { runs: n(row.runs), customers: n(row.customers) });
  }
  for (const row of workflowRuns) {
    Object.assign(workflowRow(row.workflow_id), { runs: n(row.runs), customers: n(row.customers) });
  }
  for (const row of bucketLedger) {
    const amount = n(row.amount);
    if (Number(row.by_plan) === 0) {
      const point = row.key === null ? undefined : series.get(row.key);
      if (!point) continue;
      if (row.type !== 'purchase') addMoves(point, row.type, amount);
      else {
        point.purchaseCredits += amount;
        point.purchaseUsd = addUsd(point.purchaseUsd, row.usd);
      }
    } else if (row.type !== 'purchase') addMoves(totals, row.type, amount);
    else {
      totals.purchases.purchases += n(row.rows);
      totals.purchases.credits += amount;
      totals.purchases.usd = addUsd(totals.purchases.usd, row.usd);
      const plan = plans.get(row.plan_name) ?? {
        planName: row.plan_name,
        purchases: 0,
        credits: 0,
        usd: '0.00',
      };
      plan.purchases += n(row.rows);
      plan.credits += amount;
      plan.usd = addUsd(plan.usd, row.usd);
      plans.set(row.plan_name, plan);
    }
  }
  for (const row of workflowLedger) addMoves(workflowRow(row.workflow_id), row.type, n(row.amount));

  const ranked = [...perWorkflow.entries()]
    // Ties in id order, so the same figures always come in the same order.
    .sort(
      ([ia, a], [ib, b]) =>
        b.runs - a.runs || b.netCredits - a.netCredits || String(ia).localeCompare(String(ib)),
    )
    .slice(0, INSIGHTS_MAX_WORKFLOWS);
  const ids = ranked.map(([id]) => id).filter((id): id is string => id !== null);
  const names = ids.length
    ? await db
        .select({ id: userWorkflows.id, name: userWorkflows.name })
        .from(userWorkflows)
        .where(inArray(userWorkflows.id, ids))
    : [];
  const byId = new Map(names.map((w) => [w.id, w]));

  return {
    period: rawQuery.period,
    from: range.from,
    to: range.to,
    bucket,
    workflowId,
    totals,
    series: [...series.values()],
    // A run's workflow is deleted with it; the ledger keeps its rows without the workflow: null here.
    workflows: ranked.map(([id, figures]) => ({ workflow: (id && byId.get(id)) || null, ...figures })),
    workflowsTotal: perWorkflow.size,
    purchasesByPlan: [...plans.values()].sort((a, b) => cents(b.usd) - cents(a.usd)),
  };
}
