import { and, desc, gte, ne, sql } from 'drizzle-orm';
import { STATS_DAYS, type TAdminStats } from '#shared/contract/admin.js';
import type { Db } from '#server/db/client.js';
import { newestFirst, ts } from '#server/db/sql-helpers.js';
import { creditTransactions, userProfiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { tallyRuns } from '../executions/service.js';
import { selectRunsWithRefs } from './lists.js';
import { iso } from '#server/lib/dates.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC days of the window, oldest first, as YYYY-MM-DD; the last one is today. */
function statsDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(today - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

type BigintText = string | number | bigint;

/**
 * A bigint sum as the JSON number the answer carries. The drivers give bigints as text (node-postgres) or
 * bigint (PGlite); past 2^53 a number would be silently rounded, so the answer says the largest exact one.
 */
function safeNumber(value: BigintText): number {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

const utcDay = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** The dashboard: totals, top workflows, the newest runs and two 30-day series (zero-filled). */
export async function getAdminStats(
  db: Db,
  now: Date,
): Promise<Omit<TAdminStats, 'demoPayments' | 'demoAssistant'>> {
  const days = statsDays(now);
  const since = ts(new Date(`${days[0]}T00:00:00.000Z`));

  const runDay = utcDay(workflowExecutions.createdAt);
  const creditDay = utcDay(creditTransactions.createdAt);
  await tallyRuns(db);
  // Independent reads: on PostgreSQL they run side by side on the pool.
  const [[users], [workflows], [distributed], top, recent, runCounts, creditSums] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(userProfiles),
    // Every started run is counted into its workflow's executionCount (just tallied above) and runs leave
    // only with their workflow, so the sum is the number of runs, read from a small table instead of
    // counting millions of rows.
    db
      .select({
        n: sql<number>`count(*)::int`,
        runs: sql<number>`coalesce(sum(${userWorkflows.executionCount}), 0)::bigint`,
      })
      .from(userWorkflows),
    db
      .select({
        n: sql<number>`coalesce(sum(${creditTransactions.amount}) filter (where ${creditTransactions.amount} > 0), 0)::bigint`,
      })
      .from(creditTransactions),
    db
      .select({
        id: userWorkflows.id,
        name: userWorkflows.name,
        executionCount: userWorkflows.executionCount,
      })
      .from(userWorkflows)
      .orderBy(desc(userWorkflows.executionCount), desc(userWorkflows.createdAt))
      .limit(5),
    selectRunsWithRefs(db, {
      id: workflowExecutions.id,
      status: workflowExecutions.status,
      createdAt: workflowExecutions.createdAt,
    })
      // An admin's test runs are counted nowhere (decision 147). Matches executions_created_idx, so this
      // reads five index entries (a few more past recent test runs).
      .where(ne(workflowExecutions.origin, 'test'))
      .orderBy(newestFirst(workflowExecutions.createdAt))
      .limit(5),
    db
      .select({ day: runDay, status: workflowExecutions.status, n: sql<number>`count(*)::int` })
      .from(workflowExecutions)
      .where(and(gte(workflowExecutions.createdAt, since), ne(workflowExecutions.origin, 'test')))
      .groupBy(runDay, workflowExecutions.status),
    db
      .select({
        day: creditDay,
        // bigint: one busy day (or one large grant) passes 2^31 credits, which an int cast turns into an error
        // that breaks the dashboard for the 30 days the day stays in the window.
        granted: sql<BigintText>`coalesce(sum(${creditTransactions.amount}) filter (where ${creditTransactions.amount} > 0), 0)::bigint`,
        spent: sql<BigintText>`coalesce(-sum(${creditTransactions.amount}) filter (where ${creditTransactions.transactionType} = 'usage'), 0)::bigint`,
      })
      .from(creditTransactions)
      .where(gte(creditTransactions.createdAt, since))
      .groupBy(creditDay),
  ]);

  const runsPerDay = days.map((date) => ({
    date,
    pending: 0,
    running: 0,
    completed: 0,
    failed: 0,
    expired: 0,
  }));
  const runIndex = new Map(runsPerDay.map((d) => [d.date, d]));
  for (const row of runCounts) {
    const day = runIndex.get(row.day);
    if (day) day[row.status] += Number(row.n);
  }
  const creditIndex = new Map(creditSums.map((row) => [row.day, row]));

  return {
    totals: {
      users: users?.n ?? 0,
      workflows: workflows?.n ?? 0,
      executions: Number(workflows?.runs ?? 0),
      creditsDistributed: safeNumber(distributed?.n ?? 0),
    },
    topWorkflows: top,
    recentActivity: recent.map(({ run, workflow, user }) => ({
      ...run,
      workflow,
      user,
      createdAt: iso(run.createdAt),
    })),
    runsPerDay,
    creditsPerDay: days.map((date) => ({
      date,
      granted: safeNumber(creditIndex.get(date)?.granted ?? 0),
      spent: safeNumber(creditIndex.get(date)?.spent ?? 0),
    })),
  };
}
