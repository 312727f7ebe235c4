import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { TSessionUser, TSigninRequest, TSignupRequest } from '#shared/contract/auth.js';
import type { TLanguage } from '#shared/contract/common.js';
import type { Config } from '#server/config.js';
import type { AppDeps } from '#server/types.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { accountTokens, oauthStore, sessions, userProfiles, users } from '#server/db/schema.js';
import { anyRow } from '#server/db/sql-helpers.js';
import type { DeviceSeen } from '#server/lib/device.js';
import { AppError } from '#server/lib/errors.js';
import { newToken, sha256Hex } from '#server/lib/tokens.js';
import { applyLedgerEntry } from '../credits/service.js';
import { getSetting } from '../settings/service.js';
import { isCommonPassword } from './common-passwords.js';
import { sendVerificationMail } from './mails.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import {
  clearAttempts,
  deleteSpentAttempts,
  refundAttempt,
  takeAttempts,
  type ThrottleRule,
} from './throttle.js';

// What other modules use of auth's own files (account changes passwords and sends its mails, admins send
// reset links, the first start hashes the admin's password): they import it from here, auth's entry.
export {
  deleteTokens,
  sendEmailChangeMails,
  sendPasswordChangedMail,
  sendPasswordResetMail,
} from './mails.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { takeAttempts, type ThrottleRule } from './throttle.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding idle lifetime of a session, renewed when used. */
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** Absolute lifetime: a session ends this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 90 * DAY_MS;
/**
 * Renew the sliding expiry, and note the last use and place, at most once per this interval, so reads do not
 * write on every request; the devices list's "last used" is as precise as this.
 */
export const SESSION_TOUCH_AFTER_MS = 60 * 60 * 1000;

/** Sign-in attempts: per e-mail from one address, per e-mail from anywhere (looser), and per address. */
const SIGNIN_WINDOW_MS = 15 * 60 * 1000;
export const SIGNIN_RULES = {
  emailAndIp: { limit: 10, windowMs: SIGNIN_WINDOW_MS },
  // Looser, so a flood against one address from many places does not lock its owner out everywhere at once.
  email: { limit: 50, windowMs: SIGNIN_WINDOW_MS },
  // Successes give their attempt back, so this counts failures: a spray over many e-mails from one address.
  ip: { limit: 100, windowMs: SIGNIN_WINDOW_MS },
} satisfies Record<string, ThrottleRule>;

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
    email_verified: p.emailVerifiedAt !== null,
    emailVerified: p.emailVerifiedAt !== null,
    language: p.language,
    timezone: p.timezone,
  };
}

/**
 * Creates the account, its profile and the sign-up bonus in one transaction. With `verification`, the
 * verification mail is written in the same transaction; without it (accounts an operator creates, such as
 * admins) the address counts as verified.
 */
export async function createAccount(
  deps: Pick<AppDeps, 'db' | 'metrics'>,
  input: {
    email: string;
    password: string;
    fullName: string | null;
    isAdmin?: boolean;
    language?: TLanguage;
  },
  verification?: { config: Config; now: Date },
): Promise<typeof userProfiles.$inferSelect> {
  const hashedPassword = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, hashedPassword })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!user) throw new AppError('CONFLICT', 'emailTaken');
    await tx.insert(userProfiles).values({
      id: user.id,
      email: input.email,
      fullName: input.fullName,
      isAdmin: input.isAdmin ?? false,
      language: input.language ?? 'en',
      emailVerifiedAt: verification ? null : new Date(),
    });
    const bonus = await getSetting(tx, 'signup_bonus_credits');
    if (bonus > 0) {
      await applyLedgerEntry(
        tx,
        { userId: user.id, amount: bonus, type: 'bonus', noteKind: 'signup_bonus' },
        deps.metrics,
      );
    }
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, user.id));
    if (!profile) throw new Error('profile missing after insert');
    if (verification) await sendVerificationMail(tx, verification.config, profile, verification.now);
    return profile;
  });
}

/** New accounts one address may create per window; the count is the live `signups_per_ip_per_hour`. */
export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;

/**
 * Creates an account from the sign-up form. Every account comes with the sign-up bonus, so accounts per
 * address are limited, and counted in the database like sign-in attempts (shared by every instance, kept
 * across restarts, and out of reach of a flood of the in-memory limiter's other keys): the sign-up is counted
 * in one atomic statement before the account is made (parallel sign-ups cannot all slip under the limit), and
 * given back when no account came of it (an address already taken), so a person who mistypes is not locked
 * out.
 */
export async function signup(deps: AppDeps, input: TSignupRequest & { language: TLanguage }, ip: string) {
  const { db } = deps;
  const now = deps.now();
  assertUsablePassword(input.password);
  const key = `signup:ip:${ip}`;
  const rule = { limit: await getSetting(db, 'signups_per_ip_per_hour'), windowMs: SIGNUP_WINDOW_MS };
  await takeAttempts(db, [{ key, rule }], now, 'signups');
  try {
    return await createAccount(
      deps,
      { email: input.email, password: input.password, fullName: input.fullName, language: input.language },
      { config: deps.config, now },
    );
  } catch (err) {
    await refundAttempt(db, key, rule);
    throw err;
  }
}

/** The rules a new password must meet beyond its length (the contract checks that). */
export function assertUsablePassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new AppError('VALIDATION_ERROR', 'passwordTooCommon', {
      fields: [{ field, message: 'too common', key: 'passwordTooCommon' }],
    });
  }
}

const INVALID_CREDENTIALS = () => new AppError('UNAUTHENTICATED', 'invalidCredentials');

/**
 * The refusal a suspended person gets wherever they are told (sign-in, password reset, a run's start, the
 * API): it names the operator's address (config `support_email`) when one is set, in the text and in
 * `details.supportEmail` for clients that word it themselves.
 */
export async function accountSuspended(db: DbOrTx): Promise<AppError<'ACCOUNT_SUSPENDED'>> {
  const email = await getSetting(db, 'support_email');
  return email
    ? new AppError('ACCOUNT_SUSPENDED', { key: 'withContact', params: { email } }, { supportEmail: email })
    : new AppError('ACCOUNT_SUSPENDED', 'default');
}

/** Verifies the credentials and opens a new session; returns the cookie token. */
export async function signin(
  db: Db,
  input: TSigninRequest,
  ip: string,
  seen: DeviceSeen,
  now: Date,
): Promise<{ token: string; user: TSessionUser }> {
  const keys = {
    emailAndIp: `signin:email-ip:${input.email}|${ip}`,
    email: `signin:email:${input.email}`,
    ip: `signin:ip:${ip}`,
  };
  // Counted before the password is verified, in one statement per key: concurrent guesses cannot all pass
  // a check that a later failure count would have closed.
  await takeAttempts(
    db,
    (Object.keys(keys) as Array<keyof typeof keys>).map((k) => ({ key: keys[k], rule: SIGNIN_RULES[k] })),
    now,
    'signins',
  );
  const [row] = await db
    .select({ user: users, profile: userProfiles })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.id, users.id))
    .where(eq(users.email, input.email));
  const ok = await verifyPassword(row?.user.hashedPassword ?? (await dummyPasswordHash()), input.password);
  if (!row || !ok) throw INVALID_CREDENTIALS();
  if (row.profile.accountStatus === 'suspended') throw await accountSuspended(db);
  // Only this e-mail's counters start again; the address keeps its count of failures (this success is given
  // back), so signing into one's own account now and then does not reset a spray against other accounts.
  await clearAttempts(db, [keys.emailAndIp, keys.email]);
  await refundAttempt(db, keys.ip, SIGNIN_RULES.ip);
  const token = await db.transaction(async (tx) => {
    await tx.update(userProfiles).set({ lastLoginAt: now }).where(eq(userProfiles.id, row.user.id));
    return openSession(tx, row.user.id, seen, now);
  });
  return { token, user: toSessionUser(row.profile) };
}

/** Opens a session on the device `seen` for a user already authenticated; returns the cookie token. */
export async function openSession(db: DbOrTx, userId: string, seen: DeviceSeen, now: Date): Promise<string> {
  const token = newToken(32);
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    ...seen,
    lastUsedAt: now,
    createdAt: now,
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

export async function findSession(
  db: Db,
  token: string,
  now: Date,
  seen: () => DeviceSeen,
): Promise<SessionRecord | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = sessionLookup(db)));
  const [row] = await lookup.execute({ tokenHash: sha256Hex(token), now: now.toISOString() });
  if (!row) return null;
  if (row.profile.accountStatus !== 'active') {
    // Suspension ends sessions for good, even one the suspending code path missed.
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  if (now.getTime() - row.session.lastUsedAt.getTime() > SESSION_TOUCH_AFTER_MS) {
    // The device may have moved (another network) or updated its browser since it was last noted.
    const { userAgent, country, network } = seen();
    const renewed = now.getTime() + SESSION_IDLE_MS;
    await db
      .update(sessions)
      .set({
        expiresAt: new Date(Math.min(renewed, row.session.absoluteExpiresAt.getTime())),
        lastUsedAt: now,
        country,
        network,
        ...(userAgent ? { userAgent } : {}),
      })
      .where(eq(sessions.id, row.session.id));
  }
  return { user: toSessionUser(row.profile), sessionId: row.session.id };
}

/** Whether the session still exists (an event stream asks once it watches for the session's end). */
export async function sessionIsLive(db: DbOrTx, sessionId: string): Promise<boolean> {
  return anyRow(db, sessions, eq(sessions.id, sessionId));
}

export async function revokeUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Deletes sessions past either limit and throttle counters that no longer count or block anything. */
export async function deleteExpiredAuthState(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now)));
  await deleteSpentAttempts(db, now);
  await db.delete(accountTokens).where(lt(accountTokens.expiresAt, now));
  // What the OAuth server keeps past its time (interactions, codes, tokens): every read ignores it already.
  await db.delete(oauthStore).where(lt(oauthStore.expiresAt, now));
}
