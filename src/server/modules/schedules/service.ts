import { and, asc, count, desc, eq } from 'drizzle-orm';
import {
  SCHEDULE_NEXT_RUNS,
  type TSchedule,
  type TScheduleCreate,
  type TScheduleDetail,
  type TSchedulePreview,
  type TSchedulePreviewRequest,
  type TScheduleUpdate,
} from '#shared/contract/schedules.js';
import type { DbOrTx } from '#server/db/client.js';
import { savedInputs, scheduleRuns, schedules, userProfiles } from '#server/db/schema.js';
import { isUniqueViolation } from '#server/db/sql-helpers.js';
import { conflict, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { getSetting, getSettings } from '../settings/service.js';
import { checkTiming, nextRun, nextRuns, type Timing } from './engine.js';

export { checkedTimezone } from './engine.js';

type ScheduleRow = typeof schedules.$inferSelect;

/** History entries a schedule's answer carries, newest first. */
const HISTORY_SHOWN = 20;

const timingOf = (row: Pick<ScheduleRow, 'cron' | 'timezone' | 'endsAt'>): Timing => ({
  cron: row.cron,
  timezone: row.timezone,
  endsAt: row.endsAt,
});

/** A schedule as its owner sees it: its next five times from its stored next one (none while inactive). */
function scheduleView(row: ScheduleRow): TSchedule {
  const upcoming = row.nextRunAt
    ? [row.nextRunAt, ...nextRuns(timingOf(row), row.nextRunAt, SCHEDULE_NEXT_RUNS - 1)]
    : [];
  return {
    id: row.id,
    savedInputId: row.savedInputId,
    cron: row.cron,
    timezone: row.timezone,
    endsAt: row.endsAt?.toISOString() ?? null,
    active: row.active,
    pausedReason: row.pausedReason,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    nextRuns: upcoming.map((d) => d.toISOString()),
    skipsInARow: row.skipsInARow,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The state columns of a schedule that (re)starts from `now`: active with its next time, or ended. */
function activeFrom(timing: Timing, now: Date) {
  const next = nextRun(timing, now);
  return next
    ? { active: true, pausedReason: null, nextRunAt: next }
    : { active: false, pausedReason: 'ended' as const, nextRunAt: null };
}

/** The person's own time zone (account settings), or UTC when it is not known yet. */
async function ownTimezone(db: DbOrTx, userId: string): Promise<string> {
  const [profile] = await db
    .select({ timezone: userProfiles.timezone })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  return profile?.timezone ?? 'UTC';
}

/** POST /api/schedules/preview: the next times of a timing, refused as a creation would refuse it. */
export async function previewTiming(
  deps: AppDeps,
  input: TSchedulePreviewRequest,
): Promise<TSchedulePreview> {
  const now = deps.now();
  const timing: Timing = {
    cron: input.cron,
    timezone: input.timezone,
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
  };
  checkTiming(timing, await getSetting(deps.db, 'schedule_min_interval_minutes'), now);
  return { nextRuns: nextRuns(timing, now, SCHEDULE_NEXT_RUNS).map((d) => d.toISOString()) };
}

/**
 * Creates a schedule for the person's saved answers. The count against `schedules_per_account` is taken
 * under a lock of the person's profile row, so two creations at once cannot both pass the limit.
 */
export async function createSchedule(
  deps: AppDeps,
  userId: string,
  input: TScheduleCreate,
): Promise<TSchedule> {
  const now = deps.now();
  const settings = await getSettings(deps.db, ['schedules_per_account', 'schedule_min_interval_minutes']);
  const timing: Timing = {
    cron: input.cron.trim(),
    timezone: input.timezone ?? (await ownTimezone(deps.db, userId)),
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
  };
  checkTiming(timing, settings.schedule_min_interval_minutes, now);
  try {
    return await deps.db.transaction(async (tx) => {
      await tx
        .select({ id: userProfiles.id })
        .from(userProfiles)
        .where(eq(userProfiles.id, userId))
        .for('update');
      const [saved] = await tx
        .select({ id: savedInputs.id })
        .from(savedInputs)
        .where(and(eq(savedInputs.id, input.savedInputId), eq(savedInputs.userId, userId)));
      if (!saved) throw notFound('savedInput');
      const [held] = await tx.select({ n: count() }).from(schedules).where(eq(schedules.userId, userId));
      if ((held?.n ?? 0) >= settings.schedules_per_account) {
        throw conflict({ key: 'tooManySchedules', params: { max: settings.schedules_per_account } });
      }
      const [row] = await tx
        .insert(schedules)
        .values({
          userId,
          savedInputId: saved.id,
          ...timing,
          ...activeFrom(timing, now),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return scheduleView(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('scheduleExists');
    throw err;
  }
}

async function ownSchedule(db: DbOrTx, userId: string, id: string): Promise<ScheduleRow> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, id), eq(schedules.userId, userId)));
  if (!row) throw notFound('schedule');
  return row;
}

export async function listSchedules(deps: AppDeps, userId: string): Promise<TSchedule[]> {
  const rows = await deps.db
    .select()
    .from(schedules)
    .where(eq(schedules.userId, userId))
    .orderBy(asc(schedules.createdAt), asc(schedules.id));
  return rows.map(scheduleView);
}

export async function getSchedule(deps: AppDeps, userId: string, id: string): Promise<TScheduleDetail> {
  const row = await ownSchedule(deps.db, userId, id);
  const history = await deps.db
    .select({
      dueAt: scheduleRuns.dueAt,
      outcome: scheduleRuns.outcome,
      reason: scheduleRuns.reason,
      runId: scheduleRuns.runId,
      missed: scheduleRuns.missed,
    })
    .from(scheduleRuns)
    .where(eq(scheduleRuns.scheduleId, id))
    .orderBy(desc(scheduleRuns.dueAt))
    .limit(HISTORY_SHOWN);
  return {
    ...scheduleView(row),
    history: history.map((h) => ({ ...h, dueAt: h.dueAt.toISOString() })),
  };
}

/**
 * Changes a schedule's timing, pauses it (`active: false`) or resumes it (`active: true`: from the next time
 * after now, its skips forgotten; times passed while paused are not run). A new timing is checked as a
 * creation's is and, on an active schedule, moves its next time.
 */
export async function updateSchedule(
  deps: AppDeps,
  userId: string,
  id: string,
  patch: TScheduleUpdate,
): Promise<TSchedule> {
  const now = deps.now();
  const minInterval = await getSetting(deps.db, 'schedule_min_interval_minutes');
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.id, id), eq(schedules.userId, userId)))
      .for('update');
    if (!row) throw notFound('schedule');
    const timing: Timing = {
      cron: patch.cron?.trim() ?? row.cron,
      timezone: patch.timezone ?? row.timezone,
      endsAt: patch.endsAt === undefined ? row.endsAt : patch.endsAt === null ? null : new Date(patch.endsAt),
    };
    const retimed = patch.cron !== undefined || patch.timezone !== undefined || patch.endsAt !== undefined;
    if (retimed) checkTiming(timing, minInterval, now);
    const active = patch.active ?? row.active;
    const state = !active
      ? { active: false, pausedReason: row.active ? ('person' as const) : row.pausedReason, nextRunAt: null }
      : !row.active || retimed
        ? activeFrom(timing, now)
        : {};
    const [updated] = await tx
      .update(schedules)
      .set({
        ...timing,
        ...state,
        ...(patch.active === true && !row.active ? { skipsInARow: 0 } : {}),
        updatedAt: now,
      })
      .where(eq(schedules.id, id))
      .returning();
    return scheduleView(updated!);
  });
}

export async function deleteSchedule(deps: AppDeps, userId: string, id: string): Promise<void> {
  const deleted = await deps.db
    .delete(schedules)
    .where(and(eq(schedules.id, id), eq(schedules.userId, userId)))
    .returning({ id: schedules.id });
  if (deleted.length === 0) throw notFound('schedule');
}
