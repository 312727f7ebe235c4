import { z } from 'zod';
import { ZBilingual } from './common.js';
import { ZRunOrigin } from './executions.js';
import { ZScheduleSkipReason } from './schedules.js';

/*
 * What a person is told about (decision 142): under the bell in the top bar (cookie routes under
 * /api/notifications) and by mail, as their preferences in account settings say
 * (/api/account/notification-settings).
 */

export const NOTIFICATION_KINDS = [
  'run_completed',
  'run_failed',
  'schedule_skipped',
  'schedule_paused',
  'schedule_uncovered',
  'low_balance',
] as const;
const ZNotificationKind = z.enum(NOTIFICATION_KINDS);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

/** Where a run was started from, as the preferences group them: the public API and MCP are one choice. */
export const NOTIFY_ORIGINS = ['web', 'schedule', 'api'] as const;
export type TNotifyOrigin = (typeof NOTIFY_ORIGINS)[number];

export const NOTIFY_LEVELS = ['all', 'failures', 'none'] as const;
const ZNotifyLevel = z.enum(NOTIFY_LEVELS);
export type TNotifyLevel = z.infer<typeof ZNotifyLevel>;

/** The facts a notification is worded from, kept as they were when it was written. */
const ZNotificationParams = z.object({
  workflowName: ZBilingual.optional(),
  status: z.enum(['completed', 'failed', 'expired']).optional(),
  credits: z.number().int().optional(),
  origin: ZRunOrigin.optional(),
  balance: z.number().int().optional(),
  threshold: z.number().int().optional(),
  /** The saved answers a schedule runs. */
  savedInputName: z.string().optional(),
  scheduleId: z.uuid().optional(),
  reason: ZScheduleSkipReason.optional(),
  /** ISO instant of a schedule's due time. */
  dueAt: z.string().optional(),
});
export type TNotificationParams = z.infer<typeof ZNotificationParams>;

const ZNotification = z.object({
  id: z.uuid(),
  kind: ZNotificationKind,
  runId: z.uuid().nullable(),
  workflowId: z.uuid().nullable(),
  params: ZNotificationParams,
  read: z.boolean(),
  createdAt: z.string(),
});
export type TNotification = z.infer<typeof ZNotification>;

const NOTIFICATIONS_PAGE_MAX = 50;

export const ZNotificationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(20),
  /** Older than this instant (the createdAt of the last row of the previous page). */
  before: z.iso.datetime({ offset: true }).optional(),
});

export const ZNotificationList = z.object({
  items: z.array(ZNotification),
  unread: z.number().int(),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

export const ZUnreadCount = z.object({ unread: z.number().int() });
export type TUnreadCount = z.infer<typeof ZUnreadCount>;

const ZLevels = z.strictObject({ web: ZNotifyLevel, schedule: ZNotifyLevel, api: ZNotifyLevel });

const ZNotificationPreferences = z.strictObject({ mail: ZLevels, bell: ZLevels });
export type TNotificationPreferences = z.infer<typeof ZNotificationPreferences>;
/** As stored: entries never chosen are missing and mean `all`. */
export type TNotificationPreferencesStored = {
  [C in keyof TNotificationPreferences]?: Partial<TNotificationPreferences[C]>;
};

export const LOW_BALANCE_THRESHOLD_MAX = 1_000_000;

export const ZNotificationSettings = z.strictObject({
  preferences: ZNotificationPreferences,
  /** Below this balance the person is told once; null: never (the default). */
  lowBalanceThreshold: z.number().int().min(1).max(LOW_BALANCE_THRESHOLD_MAX).nullable(),
});
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;
