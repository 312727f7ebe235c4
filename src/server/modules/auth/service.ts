import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { TSessionUser, TSigninRequest, TSignupRequest } from '../../../shared/contract/auth.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { ts } from '../../db/sql-helpers.js';
import { authThrottle, sessions, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { newToken, sha256Hex } from '../../lib/tokens.js';
import { applyLedgerEntry } from '../credits/ledger.js';
import { getSetting } from '../settings/service.js';
import { isCommonPassword } from './common-passwords.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding idle lifetime of a session, renewed when used. */
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** Absolute lifetime: a session ends this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 90 * DAY_MS;
/** Renew the sliding expiry at most once per this interval, so reads do not write on every request. */
const SESSION_RENEW_AFTER_MS = DAY_MS;

export const THROTTLE_MAX_FAILURES = 10;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;

export interface SessionRecord {
  user: TSessionUser;
  sessionId: string;
}

export function toSessionUser(p: typeof userProfiles.$inferSelect): TSessionUser {
  return {
    id: p.id,
    email: p.email,
    full_name: p.fullName,
    fullName: p.fullName,
    credits: p.credits,
    is_admin: p.isAdmin,
    isAdmin: p.isAdmin,
    account_status: p.accountStatus,
  };
}

/** Creates the account, its profile and the sign-up bonus in one transaction. */
export async function createAccount(
  db: Db,
  input: { email: string; password: string; fullName: string | null; isAdmin?: boolean },
): Promise<typeof userProfiles.$inferSelect> {
  const hashedPassword = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, hashedPassword })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!user) throw new AppError('CONFLICT', 'An account with this email already exists');
    await tx
      .insert(userProfiles)
      .values({ id: user.id, email: input.email, fullName: input.fullName, isAdmin: input.isAdmin ?? false });
    const bonus = await getSetting(tx, 'signup_bonus_credits');
    if (bonus > 0) {
      await applyLedgerEntry(tx, { userId: user.id, amount: bonus, type: 'bonus', notes: 'Sign-up bonus' });
    }
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, user.id));
    if (!profile) throw new Error('profile missing after insert');
    return profile;
  });
}

export async function signup(db: Db, input: TSignupRequest) {
  if (isCommonPassword(input.password)) {
    throw new AppError('VALIDATION_ERROR', 'This password is too common. Choose a less predictable one.', {
      fields: [{ field: 'password', message: 'too common' }],
    });
  }
  return createAccount(db, { email: input.email, password: input.password, fullName: input.fullName });
}

async function checkThrottle(db: Db, keys: string[], now: Date): Promise<void> {
  for (const key of keys) {
    const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key));
    if (row?.blockedUntil && row.blockedUntil > now) {
      const retryAfter = Math.ceil((row.blockedUntil.getTime() - now.getTime()) / 1000);
      throw new AppError('RATE_LIMITED', 'Too many failed sign-in attempts. Try again later.', {
        retryAfter,
      });
    }
  }
}

async function recordFailure(db: Db, keys: string[], now: Date): Promise<void> {
  const windowStart = ts(new Date(now.getTime() - THROTTLE_WINDOW_MS));
  const blockUntil = ts(new Date(now.getTime() + THROTTLE_WINDOW_MS));
  for (const key of keys) {
    // A failure outside the current window starts a new count; the tenth failure inside it blocks the key.
    await db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: now })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: sql`case when ${authThrottle.windowStartedAt} < ${windowStart} then 1 else ${authThrottle.failures} + 1 end`,
          windowStartedAt: sql`case when ${authThrottle.windowStartedAt} < ${windowStart} then ${ts(now)} else ${authThrottle.windowStartedAt} end`,
          blockedUntil: sql`case when ${authThrottle.windowStartedAt} >= ${windowStart} and ${authThrottle.failures} + 1 >= ${THROTTLE_MAX_FAILURES} then ${blockUntil} else null end`,
        },
      });
  }
}

const INVALID_CREDENTIALS = () => new AppError('UNAUTHENTICATED', 'Incorrect email or password');

/** Verifies the credentials and opens a new session; returns the cookie token. */
export async function signin(
  db: Db,
  input: TSigninRequest,
  ip: string,
  now: Date,
): Promise<{ token: string; user: TSessionUser }> {
  const keys = [`email:${input.email}`, `ip:${ip}`];
  await checkThrottle(db, keys, now);
  const [row] = await db
    .select({ user: users, profile: userProfiles })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.id, users.id))
    .where(eq(users.email, input.email));
  const ok = await verifyPassword(row?.user.hashedPassword ?? (await dummyPasswordHash()), input.password);
  if (!row || !ok) {
    await recordFailure(db, keys, now);
    throw INVALID_CREDENTIALS();
  }
  if (row.profile.accountStatus === 'suspended') {
    throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended');
  }
  await db.delete(authThrottle).where(sql`${authThrottle.key} in (${keys[0]}, ${keys[1]})`);
  const token = newToken(32);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      userId: row.user.id,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
      absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    });
    await tx.update(userProfiles).set({ lastLoginAt: now }).where(eq(userProfiles.id, row.user.id));
  });
  return { token, user: toSessionUser(row.profile) };
}

/** Opens a session for a user already authenticated (right after sign-up). */
export async function openSession(db: DbOrTx, userId: string, now: Date): Promise<string> {
  const token = newToken(32);
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return token;
}

export async function signout(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
}

/** Resolves a cookie token to its user; renews the sliding expiry now and then. */
/**
 * Every signed-in request runs this lookup, so it is prepared once per database: built by the query builder
 * once instead of per request (a measurable share of a run start's CPU).
 */
function sessionLookup(db: Db) {
  return db
    .select({ session: sessions, profile: userProfiles })
    .from(sessions)
    .innerJoin(userProfiles, eq(userProfiles.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.absoluteExpiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('find_session');
}
const sessionLookups = new WeakMap<Db, ReturnType<typeof sessionLookup>>();

export async function findSession(db: Db, token: string, now: Date): Promise<SessionRecord | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = sessionLookup(db)));
  const [row] = await lookup.execute({ tokenHash: sha256Hex(token), now: now.toISOString() });
  if (!row) return null;
  if (row.profile.accountStatus !== 'active') {
    // Suspension ends sessions for good, even one the suspending code path missed.
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  const renewed = now.getTime() + SESSION_IDLE_MS;
  if (renewed - row.session.expiresAt.getTime() > SESSION_RENEW_AFTER_MS) {
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Math.min(renewed, row.session.absoluteExpiresAt.getTime())) })
      .where(eq(sessions.id, row.session.id));
  }
  return { user: toSessionUser(row.profile), sessionId: row.session.id };
}

export async function revokeUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Deletes sessions past either limit and throttle counters that no longer count or block anything. */
export async function deleteExpiredAuthState(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now)));
  await db
    .delete(authThrottle)
    .where(
      and(
        lt(authThrottle.windowStartedAt, new Date(now.getTime() - THROTTLE_WINDOW_MS)),
        or(isNull(authThrottle.blockedUntil), lt(authThrottle.blockedUntil, now)),
      ),
    );
}
