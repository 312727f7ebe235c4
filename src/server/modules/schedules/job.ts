import { and, asc, eq, lt, lte, sql } from 'drizzle-orm';
import { SCHEDULE_SKIPS_BEFORE_PAUSE, type TScheduleSkipReason } from '#shared/contract/schedules.js';
import type { Tx } from '#server/db/client.js';
import { columnName, queryRows } from '#server/db/sql-helpers.js';
import { savedInputs, scheduleRuns, schedules, userProfiles, userWorkflows } from '#server/db/schema.js';
import type { Job } from '#server/jobs/scheduler.js';
import type { AppDeps } from '#server/types.js';
import { queueAccountEvent } from '../webhooks/service.js';
import {
  notifySchedulePaused,
  notifyScheduleSkipped,
  warnScheduleUncovered,
} from '../notifications/service.js';
import { decideDue, type DueDecision } from './engine.js';

/** Due schedules one transaction claims; the job takes batches until none is due. */
const BATCH = 50;
/** Transactions claiming due schedules at once on PostgreSQL (of the pool's 20 connections). */
const CLAIMERS = 4;
/** Deliveries a claimer sends at once while it claims the next batch (measured against 4, 8 and 24: decision 179). */
const DELIVERIES_AT_ONCE = 16;

/**
 * History rows kept per schedule (decision 158): a schedule running every minute would otherwise add 1,440
 * rows a day for ever. The newest are kept, so the row of the current due time (the unique index that is the
 * last guard against starting it twice) is never among those removed; the screen shows the newest 20.
 */
export const SCHEDULE_HISTORY_KEPT = 100;

type ScheduleRow = typeof schedules.$inferSelect;

/** A due time that started no run, as the person is told of it. */
interface ScheduleSkip {
  scheduleId: string;
  userId: string;
  savedInputId: string;
  dueAt: Date;
  reason: TScheduleSkipReason;
  /** The schedule paused itself with this skip (the third in a row). */
  paused: boolean;
}

/** What starting a due time's run came to: the run (and its delivery, sent after the commit), or a skip. */
type DueRunOutcome =
  | {
      kind: 'started';
      runId: string;
      deliver: (() => Promise<unknown>) | undefined;
      /** Undoes what the start did outside the transaction (its copies of kept files), when it is undone. */
      discard?: () => Promise<void>;
    }
  | { kind: 'skipped'; reason: Exclude<TScheduleSkipReason, 'missed'> };

/**
 * One claimed batch as a starter sees it: `once` reads something (the start's live settings, the saved answers
 * of all its due times) for the whole batch, in its transaction, the first due time reading it and the others
 * sharing the answer.
 */
interface DueBatch {
  /** The saved answers the batch's due times run. */
  savedInputIds: readonly string[];
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

function dueBatch(savedInputIds: readonly string[]): DueBatch {
  const reads = new Map<string, Promise<unknown>>();
  return {
    savedInputIds,
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      let value = reads.get(key) as Promise<T> | undefined;
      if (!value) {
        value = read();
        reads.set(key, value);
        // A failed read is not kept: the next due time reads again.
        value.catch(() => reads.delete(key));
      }
      return value;
    },
  };
}

/**
 * Starts the run of a due schedule's saved answers inside the transaction that holds the schedule's row,
 * charged like any run with origin `schedule`; a refusal (a skip) must write nothing, and anything else it
 * throws undoes the batch's transaction. The saved answers' own start
 * provides it (public-api's startScheduledRun, composed in src/server/jobs), so this module never reaches
 * into the run start; the job notes the run as the saved answers' last one with the due time's outcome.
 */
export type DueRunStarter = (
  deps: AppDeps,
  tx: Tx,
  savedInputId: string,
  batch: DueBatch,
) => Promise<DueRunOutcome>;

type Outcome = DueRunOutcome | { kind: 'skipped'; reason: 'missed' };

interface Handled {
  deliver?: () => Promise<unknown>;
}

/** What a claimed due time came to, written back for the whole batch in one statement (recordOutcomes). */
interface DueOutcome {
  scheduleId: string;
  savedInputId: string;
  /** Its history row; null when the due time was recorded already (it started nothing). */
  entryId: string | null;
  runId: string | null;
  outcome: 'started' | 'skipped';
  reason: string | null;
  active: boolean;
  pausedReason: string | null;
  nextRunAt: string | null;
  skips: number;
}

/**
 * One statement's input rows as typed arrays, one per column, unnested in the statement: with the arrays as
 * bound values PostgreSQL knows how many rows they hold, so it finds each row by its index instead of reading
 * whole tables (as it did for a JSON record set, whose size it guesses at a hundred).
 */
const column = <T>(values: T[], type: string) => sql`${sql.param(values)}::${sql.raw(type)}[]`;

/**
 * The batch's due times claimed in the history, in one statement (the unique index on schedule and due time is
 * the last guard against a second start): the schedules whose due time was not recorded yet, with their rows.
 */
async function claimHistory(
  tx: Tx,
  claims: Array<{ scheduleId: string; dueAt: Date; missed: number }>,
  now: Date,
): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; schedule_id: string }>(
    tx,
    sql`insert into ${scheduleRuns} (schedule_id, due_at, outcome, missed, created_at)
      select c.schedule_id, c.due_at, 'started', c.missed, ${now.toISOString()}::timestamptz
      from unnest(${column(
        claims.map((c) => c.scheduleId),
        'uuid',
      )}, ${column(
        claims.map((c) => c.dueAt.toISOString()),
        'timestamptz',
      )}, ${column(
        claims.map((c) => c.missed),
        'int',
      )}) as c(schedule_id, due_at, missed)
      on conflict do nothing
      returning id, schedule_id`,
  );
  return new Map(rows.map((r) => [r.schedule_id, r.id]));
}

/**
 * The batch's outcomes in one statement: each history row's outcome, the run noted as the saved answers' last
 * one (when one started), and each schedule's advance.
 */
async function recordOutcomes(tx: Tx, outcomes: DueOutcome[], now: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const of = <K extends keyof DueOutcome>(key: K, type: string) =>
    column(
      outcomes.map((o) => o[key]),
      type,
    );
  await tx.execute(sql`
    with o as (
      select * from unnest(${of('scheduleId', 'uuid')}, ${of('savedInputId', 'uuid')}, ${of('entryId', 'uuid')},
        ${of('runId', 'uuid')}, ${of('outcome', 'text')}, ${of('reason', 'text')}, ${of('active', 'boolean')},
        ${of('pausedReason', 'text')}, ${of('nextRunAt', 'timestamptz')}, ${of('skips', 'int')})
        as o(schedule_id, saved_input_id, entry_id, run_id, outcome, reason, active, paused_reason, next_run_at, skips)
    ), history as (
      update ${scheduleRuns} set ${columnName(scheduleRuns.runId)} = o.run_id,
        ${columnName(scheduleRuns.outcome)} = o.outcome, ${columnName(scheduleRuns.reason)} = o.reason
      from o where ${scheduleRuns.id} = o.entry_id
    ), last_run as (
      update ${savedInputs} set ${columnName(savedInputs.lastRunId)} = o.run_id
      from o where ${savedInputs.id} = o.saved_input_id and o.run_id is not null
    )
    update ${schedules} set ${columnName(schedules.active)} = o.active,
      ${columnName(schedules.pausedReason)} = o.paused_reason, ${columnName(schedules.nextRunAt)} = o.next_run_at,
      ${columnName(schedules.skipsInARow)} = o.skips, ${columnName(schedules.updatedAt)} = ${now.toISOString()}::timestamptz
    from o where ${schedules.id} = o.schedule_id`);
}

/**
 * One claimed schedule's due time: decided (by the batch's shared `decide`), run or skipped if its history row
 * is its own, and the outcome with the schedule's advance to record. A starter's fault (not a refusal) throws.
 */
async function handleDue(
  deps: AppDeps,
  start: DueRunStarter,
  tx: Tx,
  schedule: ScheduleRow,
  decision: DueDecision,
  entryId: string | null,
  batch: DueBatch,
  discards: Array<() => Promise<void>>,
): Promise<{ outcome: DueOutcome; deliver?: () => Promise<unknown>; skip?: ScheduleSkip }> {
  const advance = (skips: number, pause: boolean) => {
    const state = pause
      ? { active: false, pausedReason: 'skips', nextRunAt: null }
      : decision.next
        ? { active: schedule.active, pausedReason: schedule.pausedReason, nextRunAt: decision.next }
        : { active: false, pausedReason: 'ended', nextRunAt: null };
    return {
      scheduleId: schedule.id,
      savedInputId: schedule.savedInputId,
      entryId,
      active: state.active,
      pausedReason: state.pausedReason,
      nextRunAt: state.nextRunAt?.toISOString() ?? null,
      skips,
    };
  };
  // A due time recorded already starts nothing; the schedule is only advanced, keeping its skips.
  if (!entryId) {
    return {
      outcome: { ...advance(schedule.skipsInARow, false), runId: null, outcome: 'started', reason: null },
    };
  }
  const outcome: Outcome = decision.run
    ? await start(deps, tx, schedule.savedInputId, batch)
    : { kind: 'skipped', reason: 'missed' };
  if (outcome.kind === 'started') {
    if (outcome.discard) discards.push(outcome.discard);
    return {
      outcome: { ...advance(0, false), runId: outcome.runId, outcome: 'started', reason: null },
      ...(outcome.deliver ? { deliver: outcome.deliver } : {}),
    };
  }
  // Times missed while the service was down are nobody's doing: they neither count as skips nor reset them.
  const skips = outcome.reason === 'missed' ? schedule.skipsInARow : schedule.skipsInARow + 1;
  const pause = skips >= SCHEDULE_SKIPS_BEFORE_PAUSE;
  return {
    outcome: { ...advance(skips, pause), runId: null, outcome: 'skipped', reason: outcome.reason },
    skip: {
      scheduleId: schedule.id,
      userId: schedule.userId,
      savedInputId: schedule.savedInputId,
      dueAt: decision.latest,
      reason: outcome.reason,
      paused: pause,
    },
  };
}

/**
 * Removes the history rows of a claimed batch's schedules older than each one's newest SCHEDULE_HISTORY_KEPT:
 * one statement for the batch (each schedule's cutoff read once on schedule_runs_due_idx; with fewer rows it is
 * null and nothing is removed), after the batch's own rows are written, so the current due times stay.
 */
async function pruneHistory(tx: Tx, scheduleIds: string[]): Promise<void> {
  if (scheduleIds.length === 0) return;
  await tx.execute(sql`
    delete from ${scheduleRuns} r
    using (select s.id, (select k.due_at from ${scheduleRuns} k where k.schedule_id = s.id
                         order by k.due_at desc offset ${SCHEDULE_HISTORY_KEPT - 1} limit 1) as cutoff
           from unnest(${column(scheduleIds, 'uuid')}) as s(id)) c
    where r.schedule_id = c.id and r.due_at < c.cutoff`);
}

/**
 * Tells the schedule's owner of a skip (or, on the third in a row, of the pause it caused: one notice, which
 * names the last skip's reason) by mail and under the bell, as their `schedule` preferences say, and their
 * webhooks that take `schedule.skipped`. Written in the transaction that records the skip, so the notice and
 * the deliveries exist exactly when the skip does.
 */
async function tellOwnerOfSkip(tx: Tx, skip: ScheduleSkip, now: Date): Promise<void> {
  const [about] = await tx
    .select({ name: savedInputs.name, workflowId: userWorkflows.id, workflowName: userWorkflows.name })
    .from(savedInputs)
    .innerJoin(userWorkflows, eq(userWorkflows.id, savedInputs.workflowId))
    .where(eq(savedInputs.id, skip.savedInputId));
  if (!about) return;
  const event = {
    userId: skip.userId,
    scheduleId: skip.scheduleId,
    workflowId: about.workflowId,
    workflowName: about.workflowName,
    savedInputName: about.name,
    dueAt: skip.dueAt.toISOString(),
    reason: skip.reason,
  };
  if (skip.paused) await notifySchedulePaused(tx, event);
  else await notifyScheduleSkipped(tx, event);
  await queueAccountEvent(tx, now, {
    userId: skip.userId,
    type: 'schedule.skipped',
    workflowId: about.workflowId,
    data: {
      schedule: {
        id: skip.scheduleId,
        savedInputId: skip.savedInputId,
        savedInputName: about.name,
        workflowId: about.workflowId,
        dueAt: event.dueAt,
        reason: skip.reason,
        paused: skip.paused,
      },
    },
  });
}

/**
 * The schedules job: claims due schedules with FOR UPDATE SKIP LOCKED (instances running it at once take
 * different rows), and in the same transaction starts each one's run, records it in the history and advances
 * its next time, so each due time starts exactly one run whatever the number of instances and across
 * restarts (a crash rolls the whole claim back, run included). Deliveries and skip reports follow the commit.
 */
export async function runDueSchedules(deps: AppDeps, start: DueRunStarter): Promise<number> {
  const now = deps.now();
  // On PostgreSQL several claimers work at once (each transaction takes other rows, SKIP LOCKED), so a minute
  // with thousands of due schedules is not one connection's serial work; PGlite has one connection.
  const claimers = deps.database.kind === 'postgres' ? CLAIMERS : 1;
  // The job answers once every claimer has finished: a claimer's fault must not answer while another is still
  // committing the due times it took, which would then land after the job had already said it was done.
  const settled = await Promise.allSettled(
    Array.from({ length: claimers }, () => claimDue(deps, start, now)),
  );
  let handled = 0;
  for (const claimer of settled) {
    if (claimer.status === 'rejected') throw claimer.reason;
    handled += claimer.value;
  }
  return handled;
}

/**
 * Claims and handles batches of due schedules until none is left for this claimer. A batch's deliveries are
 * sent while the next batch is claimed and started, so the starts do not wait for the workflow services; the
 * next batch's deliveries begin only once they are done, so at most one batch's are under way per claimer and
 * each is sent within about one claim's time of its commit, well inside its lease (a slower service holds the
 * claims up rather than letting deliveries pile up past it).
 */
async function claimDue(deps: AppDeps, start: DueRunStarter, now: Date): Promise<number> {
  let handled = 0;
  let sending: Promise<unknown> = Promise.resolve(undefined);
  let failure: unknown;
  for (;;) {
    // A claim that fails still lets the deliveries under way finish before the job answers.
    const batch = await claimAndHandle(deps, start, now).catch(async (err: unknown) => {
      await sending;
      throw err;
    });
    handled += batch.size;
    failure ??= await sending;
    sending = deliverEach(batch.results);
    failure ??= batch.failure;
    if (failure || batch.size < BATCH) break;
  }
  failure ??= await sending;
  if (failure) throw failure;
  return handled;
}

/**
 * A batch's deliveries, DELIVERIES_AT_ONCE at a time: all 50 at once held the pool's connections (their
 * delivery log and acknowledgement) while the claimers waited for theirs (decisions 173 and 179). One that fails does
 * not stop the others (each was committed, and is sent now rather than after its lease); the first failure
 * is answered.
 */
async function deliverEach(results: Handled[]): Promise<unknown> {
  const queue = results.flatMap(({ deliver }) => (deliver ? [deliver] : []));
  let failure: unknown;
  const sender = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      await next().catch((err: unknown) => {
        failure ??= err;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERIES_AT_ONCE, queue.length) }, sender));
  return failure;
}

/**
 * One claimed batch, handled in its claim transaction. A fault in one due time (not a refusal: those are skips)
 * undoes the whole transaction, so nothing of the batch was written; each of its due times is then tried again
 * in a transaction of its own, and the fault holds up only its own schedule, which stays due. (A savepoint per
 * due time would keep the others without a second try, at two more round trips each, a fifth of a start's.)
 */
async function claimAndHandle(
  deps: AppDeps,
  start: DueRunStarter,
  now: Date,
): Promise<{ size: number; results: Handled[]; failure: unknown }> {
  const claimed: string[] = [];
  try {
    const results = await claimBatch(deps, start, now, null, claimed);
    return { size: claimed.length, results, failure: undefined };
  } catch (err) {
    if (claimed.length === 0) throw err;
    const results: Handled[] = [];
    let failure: unknown;
    for (const id of claimed) {
      try {
        results.push(...(await claimBatch(deps, start, now, id, [])));
      } catch (alone) {
        failure ??= alone;
      }
    }
    return { size: claimed.length, results, failure: failure ?? err };
  }
}

/**
 * One claim transaction: up to BATCH due schedules (or the one named by `only`), noted in `claimed` as they are
 * taken. Per batch, not per due time: the history's claims, the saved answers' read (the starter's, through
 * `batch`), the outcomes with the schedules' advance, and the history's pruning are one statement each, so a due
 * time costs its start statement and little more.
 */
async function claimBatch(
  deps: AppDeps,
  start: DueRunStarter,
  now: Date,
  only: string | null,
  claimed: string[],
): Promise<Handled[]> {
  const discards: Array<() => Promise<void>> = [];
  try {
    return await deps.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(schedules)
        .where(
          and(
            eq(schedules.active, true),
            lte(schedules.nextRunAt, now),
            only ? eq(schedules.id, only) : undefined,
          ),
        )
        .orderBy(asc(schedules.nextRunAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      claimed.push(...due.map((s) => s.id));
      // The schedules due in one minute mostly share their timing ("every day at 09:00"): decided once each.
      const decisions = new Map<string, DueDecision>();
      const decide = (s: ScheduleRow) => {
        const key = `${s.cron}\n${s.timezone}\n${s.endsAt?.getTime()}\n${s.nextRunAt!.getTime()}`;
        let decision = decisions.get(key);
        if (!decision) {
          decision = decideDue({ cron: s.cron, timezone: s.timezone, endsAt: s.endsAt }, s.nextRunAt!, now);
          decisions.set(key, decision);
        }
        return decision;
      };
      const decided = due.map((schedule) => ({ schedule, decision: decide(schedule) }));
      const entries = await claimHistory(
        tx,
        decided.map(({ schedule, decision }) => ({
          scheduleId: schedule.id,
          dueAt: decision.latest,
          missed: decision.missed,
        })),
        now,
      );
      const batch = dueBatch(due.map((s) => s.savedInputId));
      const results: Handled[] = [];
      const outcomes: DueOutcome[] = [];
      const skips: ScheduleSkip[] = [];
      for (const { schedule, decision } of decided) {
        const handled = await handleDue(
          deps,
          start,
          tx,
          schedule,
          decision,
          entries.get(schedule.id) ?? null,
          batch,
          discards,
        );
        outcomes.push(handled.outcome);
        if (handled.deliver) results.push({ deliver: handled.deliver });
        if (handled.skip) skips.push(handled.skip);
      }
      await recordOutcomes(tx, outcomes, now);
      for (const skip of skips) await tellOwnerOfSkip(tx, skip, now);
      await pruneHistory(
        tx,
        due.map((s) => s.id),
      );
      return results;
    });
  } catch (err) {
    // The runs started in the undone transaction never existed: the copies of their kept files go too.
    await Promise.all(discards.map((discard) => discard().catch(() => undefined)));
    throw err;
  }
}

/** Due schedules are looked for every 5 seconds, so a run starts within seconds of its minute. */
export function scheduleJob(start: DueRunStarter): Job {
  return { name: 'schedules', intervalMs: 5_000, run: (deps) => runDueSchedules(deps, start) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Warns the owners of schedules due within the next 24 hours whose balance will not cover the run: once per
 * schedule and due time (warnScheduleUncovered keeps that), however often it looks. Answers how many it warned.
 */
export async function warnUncoveredSchedules(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.db
    .select({
      scheduleId: schedules.id,
      userId: schedules.userId,
      nextRunAt: schedules.nextRunAt,
      savedInputName: savedInputs.name,
      workflowId: userWorkflows.id,
      workflowName: userWorkflows.name,
      price: userWorkflows.creditsPerExecution,
      balance: userProfiles.credits,
    })
    .from(schedules)
    .innerJoin(savedInputs, eq(savedInputs.id, schedules.savedInputId))
    .innerJoin(userWorkflows, eq(userWorkflows.id, savedInputs.workflowId))
    .innerJoin(userProfiles, eq(userProfiles.id, schedules.userId))
    .where(
      and(
        eq(schedules.active, true),
        lte(schedules.nextRunAt, new Date(now.getTime() + DAY_MS)),
        lt(userProfiles.credits, userWorkflows.creditsPerExecution),
      ),
    );
  let warned = 0;
  for (const s of due) {
    if (!s.nextRunAt) continue;
    const told = await deps.db.transaction((tx) =>
      warnScheduleUncovered(tx, {
        userId: s.userId,
        scheduleId: s.scheduleId,
        workflowId: s.workflowId,
        workflowName: s.workflowName,
        savedInputName: s.savedInputName,
        dueAt: s.nextRunAt!.toISOString(),
        balance: s.balance,
        credits: s.price,
      }),
    );
    if (told) warned += 1;
  }
  return warned;
}

/** Looked for every 10 minutes: a warning a day ahead need not be to the second. */
export const uncoveredScheduleJob: Job = {
  name: 'schedule-coverage',
  intervalMs: 10 * 60_000,
  run: (deps) => warnUncoveredSchedules(deps),
};
