import { and, asc, eq, lt, lte, sql } from 'drizzle-orm';
import { SCHEDULE_SKIPS_BEFORE_PAUSE, type TScheduleSkipReason } from '#shared/contract/schedules.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { preparedPerHandle } from '#server/db/prepared.js';
import { columnName } from '#server/db/sql-helpers.js';
import { savedInputs, scheduleRuns, schedules, userProfiles, userWorkflows } from '#server/db/schema.js';
import type { Job } from '#server/jobs/scheduler.js';
import type { AppDeps } from '#server/types.js';
import { queueAccountEvent } from '../webhooks/service.js';
import {
  notifySchedulePaused,
  notifyScheduleSkipped,
  warnScheduleUncovered,
} from '../notifications/service.js';
import { decideDue, type Timing } from './engine.js';

/** Due schedules one transaction claims; the job takes batches until none is due. */
const BATCH = 50;
/** Transactions claiming due schedules at once on PostgreSQL (of the pool's 20 connections). */
const CLAIMERS = 4;
/** Deliveries a claimer sends at once while it claims the next batch. */
const DELIVERIES_AT_ONCE = 8;

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
  | { kind: 'started'; runId: string; deliver: (() => Promise<unknown>) | undefined }
  | { kind: 'skipped'; reason: Exclude<TScheduleSkipReason, 'missed'> };

/**
 * One claimed batch as a starter sees it: `once` reads something (the start's live settings) for the whole
 * batch, in its transaction, the first due time reading it and the others sharing the answer.
 */
interface DueBatch {
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

function dueBatch(): DueBatch {
  const reads = new Map<string, Promise<unknown>>();
  return {
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
 * Starts the run of a due schedule's saved answers inside the transaction that holds the schedule's row (in
 * the savepoint of its due time), charged like any run with origin `schedule`. The saved answers' own start
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

const p = (name: string) => sql.placeholder(name);

/**
 * The due time's claim in the history (its unique index is the last guard against a second start), and below
 * its outcome with the schedule's advance: written for every due time, so each is prepared once per connection.
 */
const historyEntry = preparedPerHandle((db) =>
  db
    .insert(scheduleRuns)
    .values({
      scheduleId: p('scheduleId'),
      dueAt: p('dueAt'),
      outcome: 'started',
      missed: p('missed'),
      createdAt: p('now'),
    })
    .onConflictDoNothing()
    .returning({ id: scheduleRuns.id })
    .prepare('schedule_history_entry'),
);

/**
 * The history row's outcome (none when the due time was recorded already: `entryId` null), the run noted as
 * the saved answers' last one (when one started), and the schedule's advance, in one statement: two round
 * trips less for every due time.
 */
const outcomeAndAdvance = preparedPerHandle((db: DbOrTx) => {
  const history = scheduleRuns;
  const outcome = db.$with('outcome', {}).as(
    sql`update ${history}
      set ${columnName(history.runId)} = ${p('runId')}::uuid, ${columnName(history.outcome)} = ${p('outcome')},
        ${columnName(history.reason)} = ${p('reason')}
      where ${history.id} = ${p('entryId')}::uuid`,
  );
  const lastRun = db.$with('last_run', {}).as(
    sql`update ${savedInputs} set ${columnName(savedInputs.lastRunId)} = ${p('runId')}::uuid
      where ${savedInputs.id} = ${p('savedInputId')}::uuid and ${p('runId')}::uuid is not null`,
  );
  return db
    .with(outcome, lastRun)
    .update(schedules)
    .set({
      active: sql`${p('active')}::boolean`,
      pausedReason: sql`${p('pausedReason')}`,
      nextRunAt: sql`${p('nextRunAt')}::timestamptz`,
      skipsInARow: sql`${p('skips')}::int`,
      updatedAt: sql`${p('now')}::timestamptz`,
    })
    .where(eq(schedules.id, sql`${p('scheduleId')}::uuid`))
    .prepare('schedule_outcome_advance');
});

/**
 * One due schedule, in its own savepoint: its due time decided and claimed in the history (whose unique index
 * is the last guard: a time recorded already starts nothing), run or skipped, and the schedule advanced.
 */
async function handleDue(
  deps: AppDeps,
  start: DueRunStarter,
  tx: Tx,
  schedule: ScheduleRow,
  now: Date,
  batch: DueBatch,
): Promise<Handled> {
  const timing: Timing = { cron: schedule.cron, timezone: schedule.timezone, endsAt: schedule.endsAt };
  const decision = decideDue(timing, schedule.nextRunAt!, now);
  // The history's outcome (if this due time has a row of its own) and the schedule's next time, paused state
  // and skips. An advance that neither pauses nor ends keeps the claimed row's state (it is locked).
  const record = (
    entryId: string | null,
    outcome: { runId: string | null; outcome: 'started' | 'skipped'; reason: string | null },
    fields: { skipsInARow: number; pause: boolean },
  ) => {
    const state = fields.pause
      ? { active: false, pausedReason: 'skips', nextRunAt: null }
      : decision.next
        ? { active: schedule.active, pausedReason: schedule.pausedReason, nextRunAt: decision.next }
        : { active: false, pausedReason: 'ended', nextRunAt: null };
    return outcomeAndAdvance(tx).execute({
      entryId,
      ...outcome,
      scheduleId: schedule.id,
      savedInputId: schedule.savedInputId,
      active: state.active,
      pausedReason: state.pausedReason,
      nextRunAt: state.nextRunAt?.toISOString() ?? null,
      skips: fields.skipsInARow,
      now: now.toISOString(),
    });
  };
  const [entry] = await historyEntry(tx).execute({
    scheduleId: schedule.id,
    dueAt: decision.latest,
    missed: decision.missed,
    now,
  });
  if (!entry) {
    await record(
      null,
      { runId: null, outcome: 'started', reason: null },
      { skipsInARow: schedule.skipsInARow, pause: false },
    );
    return {};
  }
  const outcome: Outcome = decision.run
    ? await start(deps, tx, schedule.savedInputId, batch)
    : { kind: 'skipped', reason: 'missed' };
  // Times missed while the service was down are nobody's doing: they neither count as skips nor reset them.
  const skips =
    outcome.kind === 'started'
      ? 0
      : outcome.reason === 'missed'
        ? schedule.skipsInARow
        : schedule.skipsInARow + 1;
  const pause = skips >= SCHEDULE_SKIPS_BEFORE_PAUSE;
  await record(
    entry.id,
    outcome.kind === 'started'
      ? { runId: outcome.runId, outcome: 'started', reason: null }
      : { runId: null, outcome: 'skipped', reason: outcome.reason },
    { skipsInARow: skips, pause },
  );
  // The run was noted as the saved answers' last one with the outcome, as every start of them notes it.
  if (outcome.kind === 'started') return outcome.deliver ? { deliver: outcome.deliver } : {};
  const skip: ScheduleSkip = {
    scheduleId: schedule.id,
    userId: schedule.userId,
    savedInputId: schedule.savedInputId,
    dueAt: decision.latest,
    reason: outcome.reason,
    paused: pause,
  };
  await tellOwnerOfSkip(tx, skip, now);
  return {};
}

/**
 * Removes the history rows of a claimed batch's schedules older than each one's newest SCHEDULE_HISTORY_KEPT:
 * one statement for the batch (each bound read on schedule_runs_due_idx; with fewer rows it is null and
 * nothing is removed), after the batch's own rows are written, so the current due times are never removed.
 */
async function pruneHistory(tx: Tx, scheduleIds: string[]): Promise<void> {
  if (scheduleIds.length === 0) return;
  await tx.execute(sql`
    delete from ${scheduleRuns} r
    where r.schedule_id in (${sql.join(
      scheduleIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and r.due_at < (select k.due_at from ${scheduleRuns} k where k.schedule_id = r.schedule_id
                      order by k.due_at desc offset ${SCHEDULE_HISTORY_KEPT - 1} limit 1)`);
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
  const counts = await Promise.all(Array.from({ length: claimers }, () => claimDue(deps, start, now)));
  return counts.reduce((a, b) => a + b, 0);
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
    const batch = await claimBatch(deps, start, now).catch(async (err: unknown) => {
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
 * delivery log and acknowledgement) while the claimers waited for theirs (decision 173). One that fails does
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

/** One claim transaction: up to BATCH due schedules, each handled in its own savepoint. */
async function claimBatch(
  deps: AppDeps,
  start: DueRunStarter,
  now: Date,
): Promise<{ size: number; results: Handled[]; failure: unknown }> {
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.active, true), lte(schedules.nextRunAt, now)))
      .orderBy(asc(schedules.nextRunAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const results: Handled[] = [];
    let failure: unknown;
    const batch = dueBatch();
    for (const schedule of due) {
      // One schedule that fails (its savepoint undone, it stays due) does not hold up the others.
      try {
        results.push(
          await tx.transaction((savepoint) => handleDue(deps, start, savepoint, schedule, now, batch)),
        );
      } catch (err) {
        failure ??= err;
      }
    }
    await pruneHistory(
      tx,
      due.map((s) => s.id),
    );
    return { size: due.length, results, failure };
  });
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
