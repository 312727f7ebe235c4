import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import {
  NOTIFY_ORIGINS,
  type TNotification,
  type TNotificationList,
  type TNotificationPreferences,
  type TNotificationPreferencesStored,
  type TNotificationSettings,
} from '#shared/contract/notifications.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { notifications, userProfiles } from '#server/db/schema.js';
import { notFound } from '#server/lib/errors.js';

const mine = (userId: string) => and(eq(notifications.userId, userId), eq(notifications.inBell, true));

function toNotification(row: typeof notifications.$inferSelect): TNotification {
  return {
    id: row.id,
    kind: row.kind,
    runId: row.runId,
    workflowId: row.workflowId,
    params: row.params,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The person's unread notifications under the bell. */
export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The bell's list, newest first, a page at a time (`before`: the createdAt of the last row already shown). */
export async function listNotifications(
  db: DbOrTx,
  userId: string,
  page: { limit: number; before?: string | undefined },
): Promise<TNotificationList> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(mine(userId), page.before ? lt(notifications.createdAt, new Date(page.before)) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(page.limit);
  return { items: rows.map(toNotification), unread: await unreadCount(db, userId) };
}

/** Marks one of the person's notifications read (404 for anyone else's); reading twice changes nothing. */
export async function markRead(db: DbOrTx, userId: string, id: string, now: Date): Promise<number> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), mine(userId)))
    .returning({ id: notifications.id });
  if (!row) throw notFound('notification');
  return unreadCount(db, userId);
}

/** Marks every unread notification of the person read. */
export async function markAllRead(db: DbOrTx, userId: string, now: Date): Promise<number> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(mine(userId), isNull(notifications.readAt)));
  return 0;
}

/** Stored preferences with every missing entry filled in as `all`. */
function fullPreferences(stored: TNotificationPreferencesStored): TNotificationPreferences {
  const levels = (channel: 'mail' | 'bell') =>
    Object.fromEntries(
      NOTIFY_ORIGINS.map((o) => [o, stored[channel]?.[o] ?? 'all']),
    ) as TNotificationPreferences['mail'];
  return { mail: levels('mail'), bell: levels('bell') };
}

export async function getNotificationSettings(db: DbOrTx, userId: string): Promise<TNotificationSettings> {
  const [row] = await db
    .select({
      preferences: userProfiles.notificationPreferences,
      lowBalanceThreshold: userProfiles.lowBalanceThreshold,
    })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  if (!row) throw notFound('account');
  return { preferences: fullPreferences(row.preferences), lowBalanceThreshold: row.lowBalanceThreshold };
}

/**
 * Replaces the person's choices. A threshold set at or above the current balance counts as already told
 * (nothing is sent now: the balance is on the screen where it was set); the next rise above it and fall below
 * it warns.
 */
export async function setNotificationSettings(
  db: Db,
  userId: string,
  settings: TNotificationSettings,
): Promise<TNotificationSettings> {
  const threshold = settings.lowBalanceThreshold;
  await db
    .update(userProfiles)
    .set({
      notificationPreferences: settings.preferences,
      lowBalanceThreshold: threshold,
      lowBalanceWarned: threshold === null ? false : sql`${userProfiles.credits} < ${threshold}`,
    })
    .where(eq(userProfiles.id, userId));
  return getNotificationSettings(db, userId);
}
