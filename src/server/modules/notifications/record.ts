import { eq, sql } from 'drizzle-orm';
import type { TBilingual } from '#shared/contract/common.js';
import type {
  TNotificationKind,
  TNotificationParams,
  TNotificationPreferencesStored,
  TNotifyOrigin,
} from '#shared/contract/notifications.js';
import type { TRunOrigin } from '#shared/contract/executions.js';
import type { TScheduleSkipReason } from '#shared/contract/schedules.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { adminConfig, notifications, userProfiles, userWorkflows } from '#server/db/schema.js';
import { CONFIG_ENTRIES } from '#shared/contract/config.js';

/** The preferences group the public API and MCP as one choice. */
const notifyOriginOf = (origin: Exclude<TRunOrigin, 'test'>): TNotifyOrigin =>
  origin === 'mcp' ? 'api' : origin;

/**
 * Whether a channel set to `level` tells of an ending: `all` does, `failures` only of a run that did not
 * complete, `none` never. Missing entries mean `all`.
 */
function channelWants(
  prefs: TNotificationPreferencesStored,
  channel: 'mail' | 'bell',
  origin: TNotifyOrigin,
  failed: boolean,
): boolean {
  const level = prefs[channel]?.[origin] ?? 'all';
  return level === 'all' || (level === 'failures' && failed);
}

/** The facts of an ending settleRunIn knows. */
export interface EndedRun {
  runId: string;
  userId: string;
  workflowId: string;
  status: 'completed' | 'failed' | 'expired';
  origin: TRunOrigin;
  creditsUsed: number;
  /** How long the workflow worked on it (from its dispatch). */
  executionTimeMs: number | null;
  /** Null: the run never reached the workflow (a chat, or answers never sent). */
  dispatchedAt: Date | null;
}

const notifyAfterSeconds = sql<unknown>`(select ${adminConfig.value} from ${adminConfig} where ${adminConfig.key} = 'notify_after_seconds')`;

/**
 * Tells the owner of a run that ended while they were probably not watching: every run from a schedule, the
 * public API or MCP, and web runs that took longer than the live `notify_after_seconds`. Runs that never
 * reached the workflow (chats, whose person is in the conversation; answers never sent) are not told of.
 * Writes at most one row, in the ending's transaction: the ending and its notice commit together, so a crash
 * can neither lose nor double it. The mail itself is written by the notification-mail job (mail-job.ts).
 */
export async function recordRunEnded(tx: Tx, run: EndedRun): Promise<void> {
  // An admin's test run is watched by that admin and counted nowhere (decision 147): no notice.
  if (run.dispatchedAt === null || run.origin === 'test') return;
  const [facts] = await tx
    .select({
      preferences: userProfiles.notificationPreferences,
      deletedAt: userProfiles.deletedAt,
      workflowName: userWorkflows.name,
      notifyAfter: notifyAfterSeconds,
    })
    .from(userProfiles)
    .innerJoin(userWorkflows, eq(userWorkflows.id, run.workflowId))
    .where(eq(userProfiles.id, run.userId));
  if (!facts || facts.deletedAt) return;
  if (run.origin === 'web') {
    const parsed = CONFIG_ENTRIES.notify_after_seconds.schema.safeParse(facts.notifyAfter);
    const after = parsed.success ? parsed.data : CONFIG_ENTRIES.notify_after_seconds.defaultValue;
    if ((run.executionTimeMs ?? 0) <= after * 1000) return;
  }
  const failed = run.status !== 'completed';
  const origin = notifyOriginOf(run.origin);
  await insertNotification(tx, {
    userId: run.userId,
    kind: failed ? 'run_failed' : 'run_completed',
    runId: run.runId,
    workflowId: run.workflowId,
    params: {
      workflowName: facts.workflowName,
      status: run.status,
      credits: failed ? 0 : run.creditsUsed,
      origin: run.origin,
    },
    inBell: channelWants(facts.preferences, 'bell', origin, failed),
    mail: channelWants(facts.preferences, 'mail', origin, failed),
  });
}

interface NewNotification {
  userId: string;
  kind: TNotificationKind;
  runId?: string | null;
  workflowId?: string | null;
  params: TNotificationParams;
  inBell: boolean;
  mail: boolean;
  dedupeKey?: string;
}

/** Writes one notification unless neither channel wants it; false when its dedupe key was already used. */
async function insertNotification(tx: DbOrTx, n: NewNotification): Promise<boolean> {
  if (!n.inBell && !n.mail) return false;
  const rows = await tx
    .insert(notifications)
    .values({
      userId: n.userId,
      kind: n.kind,
      runId: n.runId ?? null,
      workflowId: n.workflowId ?? null,
      params: n.params,
      inBell: n.inBell,
      mailState: n.mail ? 'pending' : 'none',
      dedupeKey: n.dedupeKey ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** What a schedule tells of its owner (engineer F's schedules call the functions below). */
export interface ScheduleEvent {
  userId: string;
  scheduleId: string;
  workflowId: string;
  /** The workflow's names, as the person reads them. */
  workflowName: TBilingual;
  /** The name of the saved answers the schedule runs. */
  savedInputName: string;
  /** ISO instant of the due time concerned. */
  dueAt: string;
}

/**
 * A schedule's due run was skipped (no credits, workflow paused or inactive). Call it in the transaction that
 * records the skip in the schedule's history. Told by mail and under the bell as the person's `schedule`
 * preferences say; a skip counts as a failure.
 */
export async function notifyScheduleSkipped(
  tx: Tx,
  event: ScheduleEvent & { reason: TScheduleSkipReason },
): Promise<void> {
  await notifySchedule(tx, 'schedule_skipped', event, { reason: event.reason });
}

/** A schedule paused itself (three skips in a row). Call it in the transaction that pauses it. */
export async function notifySchedulePaused(
  tx: Tx,
  event: ScheduleEvent & { reason: TScheduleSkipReason },
): Promise<void> {
  await notifySchedule(tx, 'schedule_paused', event, { reason: event.reason });
}

/**
 * A scheduled run due within the next 24 hours that the balance will not cover (`balance` below `credits`):
 * warns once per schedule and due time, however often it is called. Answers whether it warned now.
 */
export async function warnScheduleUncovered(
  tx: Tx,
  event: ScheduleEvent & { balance: number; credits: number },
): Promise<boolean> {
  return notifySchedule(
    tx,
    'schedule_uncovered',
    event,
    { balance: event.balance, credits: event.credits },
    `uncovered:${event.scheduleId}:${event.dueAt}`,
  );
}

async function notifySchedule(
  tx: Tx,
  kind: 'schedule_skipped' | 'schedule_paused' | 'schedule_uncovered',
  event: ScheduleEvent,
  extra: TNotificationParams,
  dedupeKey?: string,
): Promise<boolean> {
  const [profile] = await tx
    .select({ preferences: userProfiles.notificationPreferences, deletedAt: userProfiles.deletedAt })
    .from(userProfiles)
    .where(eq(userProfiles.id, event.userId));
  if (!profile || profile.deletedAt) return false;
  return insertNotification(tx, {
    userId: event.userId,
    kind,
    workflowId: event.workflowId,
    params: {
      workflowName: event.workflowName,
      savedInputName: event.savedInputName,
      scheduleId: event.scheduleId,
      dueAt: event.dueAt,
      origin: 'schedule',
      ...extra,
    },
    inBell: channelWants(profile.preferences, 'bell', 'schedule', true),
    mail: channelWants(profile.preferences, 'mail', 'schedule', true),
    ...(dedupeKey ? { dedupeKey } : {}),
  });
}
