import { sql } from 'drizzle-orm';
import { TEST_RUN_ORIGIN } from '#shared/contract/executions.js';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import {
  creditTransactions,
  insightLedgerDayTotals,
  insightLedgerDays,
  insightRunDays,
  insightRunDayTotals,
  insightTallyMark,
  workflowExecutions,
} from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import type { Job } from '#server/jobs/scheduler.js';

/**
 * A day is tallied once it ended this long ago: a transaction that began before midnight stamps its rows with
 * its start (now()) and may still be committing them for a moment; none lasts an hour.
 */
const SETTLE_MS = 60 * 60 * 1000;

/** The first UTC day that may still gain rows at `now`: every day before it is over and settled. */
export const firstOpenDay = (now: Date): string =>
  new Date(now.getTime() - SETTLE_MS).toISOString().slice(0, 10);

/** The first day not in the tallies (the insights read raw rows from it on). */
export async function tallyMark(db: DbOrTx): Promise<string | null> {
  const [mark] = await db.select({ through: insightTallyMark.through }).from(insightTallyMark);
  return mark?.through ?? null;
}

/**
 * Adds the days [from, to) to the tallies: counted runs per (day, workflow, customer) and per day with its
 * distinct customers, ledger usage, refund and purchase rows per (day, workflow, type, plan), and those summed
 * over workflows per (day, type, plan). The same statements as the backfills of migrations 0035-0037.
 */
async function tallyDays(db: DbOrTx, from: string | null, to: string): Promise<void> {
  const since = (column: AnyPgColumn) =>
    from === null ? sql`true` : sql`${column} >= (${from}::date::timestamp at time zone 'UTC')`;
  await db.execute(sql`
    insert into ${insightRunDays} (day, workflow_id, user_id, runs)
    select (${workflowExecutions.createdAt} at time zone 'UTC')::date, ${workflowExecutions.workflowId},
           ${workflowExecutions.userId}, count(*)::int
      from ${workflowExecutions}
     where ${since(workflowExecutions.createdAt)}
       and ${workflowExecutions.createdAt} < (${to}::date::timestamp at time zone 'UTC')
       and ${workflowExecutions.origin} <> ${TEST_RUN_ORIGIN}
     group by 1, 2, 3`);
  await db.execute(sql`
    insert into ${insightRunDayTotals} (day, runs, customers)
    select day, sum(runs)::int, count(distinct user_id)::int
      from ${insightRunDays}
     where ${from === null ? sql`true` : sql`day >= ${from}::date`} and day < ${to}::date
     group by 1`);
  await db.execute(sql`
    insert into ${insightLedgerDays} (day, workflow_id, transaction_type, plan_name, rows, amount, usd_amount)
    select (${creditTransactions.createdAt} at time zone 'UTC')::date, ${creditTransactions.workflowId},
           ${creditTransactions.transactionType}, ${creditTransactions.planName}, count(*)::int,
           sum(${creditTransactions.amount})::bigint, sum(${creditTransactions.usdAmount})
      from ${creditTransactions}
     where ${since(creditTransactions.createdAt)}
       and ${creditTransactions.createdAt} < (${to}::date::timestamp at time zone 'UTC')
       and ${creditTransactions.transactionType} in ('usage', 'refund', 'purchase')
     group by 1, 2, 3, 4`);
  await db.execute(sql`
    insert into ${insightLedgerDayTotals} (day, transaction_type, plan_name, rows, amount, usd_amount)
    select day, transaction_type, plan_name, sum(rows)::int, sum(amount)::bigint, sum(usd_amount)
      from ${insightLedgerDays}
     where ${from === null ? sql`true` : sql`day >= ${from}::date`} and day < ${to}::date
     group by 1, 2, 3`);
}

/**
 * Brings the tallies up to the last settled day, in one transaction that holds the mark's row (migration 0035
 * writes it): instances running it at once wait for each other and the later one finds nothing left to do.
 * Called by the insight-tally job; the insights are right without it (they read raw rows past the mark), only
 * slower.
 */
export async function tallyClosedDays(db: Db, now: Date): Promise<void> {
  const open = firstOpenDay(now);
  await db.transaction(async (tx) => {
    const through = await lockMark(tx);
    if (through !== null && through >= open) return;
    await tallyDays(tx, through, open);
    await setMark(tx, open);
  });
}

/**
 * Tallies every settled day again from the raw rows. For data written into past days by hand (the benchmark's
 * seed, tests that date their rows): the app itself never writes a row into a day that is over.
 */
export async function retallyAll(db: Db, now: Date): Promise<void> {
  const open = firstOpenDay(now);
  await db.transaction(async (tx) => {
    await lockMark(tx);
    await tx.delete(insightRunDays);
    await tx.delete(insightRunDayTotals);
    await tx.delete(insightLedgerDays);
    await tx.delete(insightLedgerDayTotals);
    await tallyDays(tx, null, open);
    await setMark(tx, open);
  });
}

async function lockMark(tx: Tx): Promise<string | null> {
  const [mark] = await queryRows<{ through: string }>(
    tx,
    sql`select through::text as through from ${insightTallyMark} where id = 1 for update`,
  );
  return mark?.through ?? null;
}

const setMark = (tx: Tx, through: string) =>
  tx
    .insert(insightTallyMark)
    .values({ id: 1, through })
    .onConflictDoUpdate({ target: insightTallyMark.id, set: { through } });

/** Each day is tallied within minutes of settling; until then the insights read its raw rows. */
export const insightTallyJob: Job = {
  name: 'insight-tally',
  intervalMs: 5 * 60_000,
  run: (deps) => tallyClosedDays(deps.db, deps.now()),
};
