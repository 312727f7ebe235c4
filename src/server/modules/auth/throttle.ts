import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { ts } from '#server/db/sql-helpers.js';
import { authThrottle } from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import type { ErrorTextKey } from '#shared/i18n/errors.js';

/**
 * Attempt counters shared by every server instance (sign-in, password reset, verification mails).
 * An attempt is counted in one atomic statement before the work it guards, so concurrent attempts cannot
 * slip past the limit between a check and a count. The attempt that reaches the limit is still allowed and
 * starts a block of one window; later attempts are refused until the block ends.
 */
export interface ThrottleRule {
  /** Attempts allowed in one window. */
  limit: number;
  windowMs: number;
}

/** The longest window any rule uses: counters older than this are spent and deleted by the cleanup job. */
const THROTTLE_MAX_WINDOW_MS = 60 * 60 * 1000;

interface AttemptOutcome {
  allowed: boolean;
  /** Seconds until the key accepts attempts again (0 while allowed). */
  retryAfter: number;
}

async function takeAttempt(db: DbOrTx, key: string, rule: ThrottleRule, now: Date): Promise<AttemptOutcome> {
  const windowStart = ts(new Date(now.getTime() - rule.windowMs));
  const blockUntil = ts(new Date(now.getTime() + rule.windowMs));
  const t = authThrottle;
  // A block that is over, or a window that ran out without a block, starts a new count.
  const restart = sql`((${t.blockedUntil} is not null and ${t.blockedUntil} <= ${ts(now)}) or (${t.blockedUntil} is null and ${t.windowStartedAt} < ${windowStart}))`;
  const [row] = await db
    .insert(t)
    .values({
      key,
      failures: 1,
      windowStartedAt: now,
      blockedUntil: rule.limit <= 1 ? new Date(now.getTime() + rule.windowMs) : null,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${restart} then 1 else ${t.failures} + 1 end`,
        windowStartedAt: sql`case when ${restart} then ${ts(now)} else ${t.windowStartedAt} end`,
        blockedUntil: sql`case
          when ${restart} then case when 1 >= ${rule.limit} then ${blockUntil} else null end
          when ${t.failures} + 1 >= ${rule.limit} then coalesce(${t.blockedUntil}, ${blockUntil})
          else null end`,
      },
    })
    .returning({ failures: t.failures, blockedUntil: t.blockedUntil });
  if (!row) throw new Error('throttle upsert returned no row');
  if (row.failures <= rule.limit) return { allowed: true, retryAfter: 0 };
  const until = row.blockedUntil ?? new Date(now.getTime() + rule.windowMs);
  return { allowed: false, retryAfter: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)) };
}

/**
 * Takes an attempt on each key in turn, narrowest first, and refuses with 429 at the first key over its
 * limit. A refused attempt is not counted on the broader keys after it: it never reached the work they guard,
 * so hammering one account from one address cannot lock that account out from everywhere, and the keys a
 * request passed are the same however concurrent requests interleave.
 */
export async function takeAttempts(
  db: DbOrTx,
  attempts: Array<{ key: string; rule: ThrottleRule }>,
  now: Date,
  message: ErrorTextKey<'RATE_LIMITED'>,
): Promise<void> {
  for (const { key, rule } of attempts) {
    const outcome = await takeAttempt(db, key, rule, now);
    if (!outcome.allowed) {
      throw new AppError('RATE_LIMITED', message, { retryAfter: outcome.retryAfter });
    }
  }
}

/** Gives back one attempt (a success that should not count against a shared key, such as an address). */
export async function refundAttempt(db: DbOrTx, key: string, rule: ThrottleRule): Promise<void> {
  const t = authThrottle;
  await db
    .update(t)
    .set({
      failures: sql`greatest(${t.failures} - 1, 0)`,
      blockedUntil: sql`case when ${t.failures} - 1 < ${rule.limit} then null else ${t.blockedUntil} end`,
    })
    .where(eq(t.key, key));
}

export async function clearAttempts(db: DbOrTx, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(authThrottle).where(or(...keys.map((k) => eq(authThrottle.key, k))));
}

/** Deletes counters that no longer count or block anything: a block that is over restarts its count anyway. */
export async function deleteSpentAttempts(db: DbOrTx, now: Date): Promise<void> {
  await db
    .delete(authThrottle)
    .where(
      or(
        lt(authThrottle.blockedUntil, now),
        and(
          isNull(authThrottle.blockedUntil),
          lt(authThrottle.windowStartedAt, new Date(now.getTime() - THROTTLE_MAX_WINDOW_MS)),
        ),
      ),
    );
}
