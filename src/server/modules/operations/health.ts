import { sql } from 'drizzle-orm';
import {
  DURATION_BUCKETS_MS,
  PUBLIC_HEALTH_MIN_RUNS,
  type THealthWindow,
  type TPublicHealth,
  type TWorkflowHealth,
} from '#shared/contract/operations.js';
import type { DbOrTx } from '#server/db/client.js';
import { workflowHealthDays, workflowHealthNotes } from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';

/** At most this many notes are folded per pass, so one pass stays a short transaction. */
const BATCH = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The histogram's bucket of a duration, as SQL over the notes' `duration_ms`. */
const bucketArray = sql.raw(
  `array[${[...DURATION_BUCKETS_MS, null]
    .map(
      (upper, i) =>
        `count(*) filter (where outcome = 'completed' and duration_ms is not null${
          i > 0 ? ` and duration_ms >= ${DURATION_BUCKETS_MS[i - 1]}` : ''
        }${upper === null ? '' : ` and duration_ms < ${upper}`})::int`,
    )
    .join(', ')}]`,
);

/**
 * Moves the notes of ended runs into their workflows' daily tallies in one statement (the rows it deletes are
 * the rows it adds, so a crash counts them entirely or not at all; instances running it at once take
 * different rows with SKIP LOCKED). Notes of a deleted workflow are dropped. Called by the health job, and
 * before an admin screen reads the tallies, so those show every committed ending.
 */
export async function foldHealthNotes(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    with noted as (
      delete from ${workflowHealthNotes}
      where ctid in (select ctid from ${workflowHealthNotes} limit ${BATCH} for update skip locked)
      returning workflow_id, ended_at, outcome, duration_ms
    ), days as (
      select workflow_id, (ended_at at time zone 'UTC')::date as day,
        count(*) filter (where outcome = 'completed')::int as completed,
        count(*) filter (where outcome = 'failed')::int as failed,
        count(*) filter (where outcome = 'expired')::int as expired,
        count(*) filter (where outcome = 'refused')::int as refused,
        ${bucketArray} as durations
      from noted group by 1, 2
    )
    insert into ${workflowHealthDays} as h (workflow_id, day, completed, failed, expired, refused, durations, folded)
    select d.*, nextval('workflow_health_fold_seq') from days d join user_workflows w on w.id = d.workflow_id
    on conflict (workflow_id, day) do update set
      folded = excluded.folded,
      completed = h.completed + excluded.completed,
      failed = h.failed + excluded.failed,
      expired = h.expired + excluded.expired,
      refused = h.refused + excluded.refused,
      durations = (select array_agg(coalesce(a, 0) + coalesce(b, 0) order by i)
                   from unnest(h.durations, excluded.durations) with ordinality as u(a, b, i))`);
}

interface Tally {
  completed: number;
  failed: number;
  expired: number;
  refused: number;
  durations: number[];
}

/** The p-th percentile (0-1) of a histogram, interpolated inside its bucket; null when it is empty. */
function percentileOf(durations: readonly number[], p: number): number | null {
  const total = durations.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = p * total;
  let seen = 0;
  for (let i = 0; i < durations.length; i += 1) {
    const n = durations[i] ?? 0;
    if (n > 0 && seen + n >= rank) {
      const lower = i === 0 ? 0 : DURATION_BUCKETS_MS[i - 1]!;
      // The open last bucket is read as twice its lower bound.
      const upper = DURATION_BUCKETS_MS[i] ?? lower * 2;
      return Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return null;
}

function windowOf(t: Tally): THealthWindow {
  const finished = t.completed + t.failed + t.expired;
  return {
    finished,
    completed: t.completed,
    failed: t.failed,
    expired: t.expired,
    refused: t.refused,
    successRate: finished === 0 ? null : Math.round((t.completed * 1000) / finished) / 10,
    medianMs: percentileOf(t.durations, 0.5),
    p95Ms: percentileOf(t.durations, 0.95),
  };
}

const empty = (): Tally => ({
  completed: 0,
  failed: 0,
  expired: 0,
  refused: 0,
  durations: DURATION_BUCKETS_MS.map(() => 0).concat(0),
});

function add(into: Tally, row: Tally): void {
  into.completed += row.completed;
  into.failed += row.failed;
  into.expired += row.expired;
  into.refused += row.refused;
  row.durations.forEach((n, i) => (into.durations[i] = (into.durations[i] ?? 0) + n));
}

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A workflow's health: the last 24 hours exactly, from its runs (one index range: the runs that ended in a
 * day), and 7 and 30 days from the daily tallies (today's included), with the daily series for the chart.
 */
export async function healthWindows(
  db: DbOrTx,
  workflowId: string,
  now: Date,
): Promise<Pick<TWorkflowHealth, 'day' | 'week' | 'month' | 'daily'>> {
  await foldHealthNotes(db);
  const from = new Date(now.getTime() - 29 * DAY_MS);
  const rows = await queryRows<Tally & { day: string }>(
    db,
    sql`select day::text as day, completed, failed, expired, refused, durations from ${workflowHealthDays}
        where workflow_id = ${workflowId}::uuid and day >= ${dayKey(from)}::date order by day`,
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const week = empty();
  const month = empty();
  const daily: TWorkflowHealth['daily'] = [];
  for (let i = 29; i >= 0; i -= 1) {
    const key = dayKey(new Date(now.getTime() - i * DAY_MS));
    const row = byDay.get(key);
    daily.push({
      day: key,
      completed: row?.completed ?? 0,
      failed: row?.failed ?? 0,
      expired: row?.expired ?? 0,
      refused: row?.refused ?? 0,
    });
    if (!row) continue;
    add(month, row);
    if (i < 7) add(week, row);
  }
  const [last] = await queryRows<{
    completed: number;
    failed: number;
    expired: number;
    refused: number;
    median: number | null;
    p95: number | null;
  }>(
    db,
    sql`select count(*) filter (where status = 'completed')::int as completed,
          count(*) filter (where status = 'failed' and error_code is distinct from 'workflow_refused')::int as failed,
          count(*) filter (where status = 'expired')::int as expired,
          count(*) filter (where error_code = 'workflow_refused')::int as refused,
          (percentile_cont(0.5) within group (order by execution_time_ms) filter (where status = 'completed'))::int as median,
          (percentile_cont(0.95) within group (order by execution_time_ms) filter (where status = 'completed'))::int as p95
        from workflow_executions
        where workflow_id = ${workflowId}::uuid
          and completed_at > ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz
          and origin not in ('test') and (status = 'completed' or dispatched_at is not null)`,
  );
  const l = last ?? { completed: 0, failed: 0, expired: 0, refused: 0, median: null, p95: null };
  const finished = l.completed + l.failed + l.expired;
  return {
    day: {
      finished,
      completed: l.completed,
      failed: l.failed,
      expired: l.expired,
      refused: l.refused,
      successRate: finished === 0 ? null : Math.round((l.completed * 1000) / finished) / 10,
      medianMs: l.median,
      p95Ms: l.p95,
    },
    week: windowOf(week),
    month: windowOf(month),
    daily,
  };
}

/**
 * The 30-day success rate (0-100, one decimal) and finished count of many workflows, from the tallies: one
 * index range per workflow, 30 rows each. For the admin list and the catalogue.
 */
export async function monthlyHealthOf(
  db: DbOrTx,
  workflowIds: readonly string[],
  now: Date,
): Promise<Map<string, { finished: number; successRate: number | null; medianMs: number | null }>> {
  const result = new Map<string, { finished: number; successRate: number | null; medianMs: number | null }>();
  if (workflowIds.length === 0) return result;
  const from = dayKey(new Date(now.getTime() - 29 * DAY_MS));
  const rows = await queryRows<Tally & { workflow_id: string }>(
    db,
    sql`select workflow_id, completed, failed, expired, refused, durations from ${workflowHealthDays}
        where workflow_id = any(${`{${workflowIds.join(',')}}`}::uuid[]) and day >= ${from}::date`,
  );
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    let t = tallies.get(row.workflow_id);
    if (!t) tallies.set(row.workflow_id, (t = empty()));
    add(t, row);
  }
  for (const [id, t] of tallies) {
    const w = windowOf(t);
    result.set(id, { finished: w.finished, successRate: w.successRate, medianMs: w.medianMs });
  }
  return result;
}

/** What the public sees: nothing under PUBLIC_HEALTH_MIN_RUNS finished runs in 30 days (decision 145). */
export function publicHealth(
  h: { finished: number; successRate: number | null; medianMs: number | null } | undefined,
): TPublicHealth {
  if (!h || h.finished < PUBLIC_HEALTH_MIN_RUNS || h.successRate === null) return null;
  return { successPercent: Math.floor(h.successRate), typicalMs: h.medianMs };
}

/**
 * The 30-day success rate of every workflow with finished runs, as a subquery to join a list to (one pass over
 * the last 30 days of tallies through their day index), for sorting a list by it.
 */
export function monthlySuccessRates(now: Date) {
  const from = dayKey(new Date(now.getTime() - 29 * DAY_MS));
  return sql`(select workflow_id,
      sum(completed)::float / nullif(sum(completed + failed + expired), 0) as rate
    from ${workflowHealthDays} where day >= ${from}::date group by workflow_id)`;
}
