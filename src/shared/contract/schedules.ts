import { z } from 'zod';

/*
 * Schedules of saved answers (decision 141): the same shape on the cookie routes (/api/schedules) and the
 * public API (/api/v1/schedules). Times are ISO date-times (UTC); the screens show them in the person's zone.
 */

/** Why a schedule is not active: the person paused it, it paused itself after 3 skips in a row, or it ended. */
export const SCHEDULE_PAUSE_REASONS = ['person', 'skips', 'ended'] as const;
const ZSchedulePauseReason = z.enum(SCHEDULE_PAUSE_REASONS);

/** Why a due time started no run. */
export const SCHEDULE_SKIP_REASONS = [
  'insufficient_credits',
  'workflow_unavailable',
  'needs_review',
  'account_suspended',
  'missed',
] as const;
export const ZScheduleSkipReason = z.enum(SCHEDULE_SKIP_REASONS);
export type TScheduleSkipReason = z.infer<typeof ZScheduleSkipReason>;

/** Skips in a row (other than times missed while the service was down) after which a schedule pauses itself. */
export const SCHEDULE_SKIPS_BEFORE_PAUSE = 3;
/** How many next times an answer lists. */
export const SCHEDULE_NEXT_RUNS = 5;

const ZCron = z.string().max(100);
const ZTimezone = z.string().min(1).max(64);
const ZEndsAt = z.iso.datetime({ offset: true });

/** POST /api/schedules and /api/v1/schedules. `timezone` defaults to the person's own (else UTC). */
export const ZScheduleCreate = z.object({
  savedInputId: z.uuid(),
  cron: ZCron,
  timezone: ZTimezone.optional(),
  endsAt: ZEndsAt.nullable().optional(),
});
export type TScheduleCreate = z.infer<typeof ZScheduleCreate>;

/** PATCH: change the timing, or pause (`active: false`) and resume (`active: true`). */
export const ZScheduleUpdate = z
  .object({
    cron: ZCron.optional(),
    timezone: ZTimezone.optional(),
    endsAt: ZEndsAt.nullable().optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to change' });
export type TScheduleUpdate = z.infer<typeof ZScheduleUpdate>;

/** POST /api/schedules/preview: the next times of a timing, checked as a creation would check it. */
export const ZSchedulePreviewRequest = z.object({
  cron: ZCron,
  timezone: ZTimezone,
  endsAt: ZEndsAt.nullable().optional(),
});
export type TSchedulePreviewRequest = z.infer<typeof ZSchedulePreviewRequest>;
export const ZSchedulePreview = z.object({ nextRuns: z.array(z.string()) });
export type TSchedulePreview = z.infer<typeof ZSchedulePreview>;

const ZScheduleHistoryEntry = z.object({
  dueAt: z.string(),
  outcome: z.enum(['started', 'skipped']),
  reason: ZScheduleSkipReason.nullable(),
  runId: z.uuid().nullable(),
  /** Earlier due times passed over while the service was down. */
  missed: z.number().int(),
});

export const ZSchedule = z.object({
  id: z.uuid(),
  savedInputId: z.uuid(),
  cron: z.string(),
  timezone: z.string(),
  endsAt: z.string().nullable(),
  active: z.boolean(),
  pausedReason: ZSchedulePauseReason.nullable(),
  nextRunAt: z.string().nullable(),
  /** The next five times (fewer when it ends sooner; none while paused). */
  nextRuns: z.array(z.string()),
  skipsInARow: z.number().int(),
  createdAt: z.string(),
});
export type TSchedule = z.infer<typeof ZSchedule>;

/** GET one schedule: with its latest history (newest first, at most 20). */
export const ZScheduleDetail = ZSchedule.extend({ history: z.array(ZScheduleHistoryEntry) });
export type TScheduleDetail = z.infer<typeof ZScheduleDetail>;

export const ZScheduleList = z.object({ schedules: z.array(ZSchedule) });
