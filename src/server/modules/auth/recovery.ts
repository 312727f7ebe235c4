import { and, eq, gt, sql } from 'drizzle-orm';
import type { TPasswordResetConfirm, TSessionUser, TVerifyEmailResponse } from '#shared/contract/auth.js';
import type { DbOrTx } from '#server/db/client.js';
import { isUniqueViolation, ts } from '#server/db/sql-helpers.js';
import { accountTokens, userProfiles, users } from '#server/db/schema.js';
import { AppError, conflict, notFound } from '#server/lib/errors.js';
import { sha256Hex } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import { revokeAccountAccess } from '../apikeys/service.js';
import {
  deleteTokens,
  sendPasswordChangedMail,
  sendPasswordResetMail,
  sendVerificationMail,
  type TokenPurpose,
} from './mails.js';
import { hashPassword } from './passwords.js';
import type { DeviceSeen } from '#server/lib/device.js';
import {
  accountSuspended,
  assertUsablePassword,
  openSession,
  revokeUserSessions,
  toSessionUser,
} from './service.js';
import { clearAttempts, takeAttempts, type ThrottleRule } from './throttle.js';

const HOUR_MS = 60 * 60 * 1000;
export const RESET_RULES = {
  email: { limit: 5, windowMs: HOUR_MS },
  ip: { limit: 20, windowMs: HOUR_MS },
} satisfies Record<string, ThrottleRule>;
const RESEND_RULE: ThrottleRule = { limit: 5, windowMs: HOUR_MS };

const invalidToken = () => new AppError('INVALID_TOKEN', 'default');
/** An address verified before keeps its first date. */
const verifiedSince = (now: Date) => sql`coalesce(${userProfiles.emailVerifiedAt}, ${ts(now)})`;

/**
 * Mails a reset link when the address belongs to an active account. The caller learns nothing either way:
 * the answer is the same, and both paths only touch the database (the mail is sent later by the job).
 */
export async function requestPasswordReset(deps: AppDeps, email: string, ip: string): Promise<void> {
  const now = deps.now();
  await takeAttempts(
    deps.db,
    [
      { key: `reset:email:${email}`, rule: RESET_RULES.email },
      { key: `reset:ip:${ip}`, rule: RESET_RULES.ip },
    ],
    now,
    'passwordResets',
  );
  await deps.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.email, email));
    if (!profile || profile.accountStatus !== 'active' || profile.deletedAt) return;
    await sendPasswordResetMail(tx, deps.config, profile, now);
  });
}

async function findLiveToken(db: DbOrTx, token: string, purposes: TokenPurpose[], now: Date) {
  const [row] = await db
    .select({ token: accountTokens, profile: userProfiles })
    .from(accountTokens)
    .innerJoin(userProfiles, eq(userProfiles.id, accountTokens.userId))
    .where(and(eq(accountTokens.tokenHash, sha256Hex(token)), gt(accountTokens.expiresAt, now)));
  return row && purposes.includes(row.token.purpose) ? row : undefined;
}

/** Spends a token: exactly one caller gets the row, so a link works once even when opened twice at once. */
async function spendToken(tx: DbOrTx, id: string): Promise<boolean> {
  const spent = await tx
    .delete(accountTokens)
    .where(eq(accountTokens.id, id))
    .returning({ id: accountTokens.id });
  return spent.length === 1;
}

/**
 * Sets a new password from a reset link: every session of the account ends, every API key is revoked (whoever
 * held the account before its owner recovered it may have made them), a notice naming them is mailed, and a
 * new session opens for this browser. Opening the link also proves the address, so it counts as verified.
 */
export async function confirmPasswordReset(
  deps: AppDeps,
  input: TPasswordResetConfirm,
  seen: DeviceSeen,
): Promise<{ token: string; user: TSessionUser }> {
  const now = deps.now();
  const found = await findLiveToken(deps.db, input.token, ['password_reset'], now);
  if (!found || found.profile.deletedAt || found.token.email !== found.profile.email) throw invalidToken();
  if (found.profile.accountStatus !== 'active') throw await accountSuspended(deps.db);
  assertUsablePassword(input.password);
  const hashedPassword = await hashPassword(input.password);
  const profile = await deps.db.transaction(async (tx) => {
    if (!(await spendToken(tx, found.token.id))) throw invalidToken();
    await tx.update(users).set({ hashedPassword }).where(eq(users.id, found.profile.id));
    await revokeUserSessions(tx, found.profile.id);
    const revoked = await revokeAccountAccess(tx, found.profile.id);
    const [updated] = await tx
      .update(userProfiles)
      .set({ emailVerifiedAt: verifiedSince(now), updatedAt: now })
      .where(eq(userProfiles.id, found.profile.id))
      .returning();
    await sendPasswordChangedMail(tx, deps.config, updated!, revoked.apiKeys);
    return updated!;
  });
  // The person proved they own the address: earlier failed sign-ins on it no longer count against them.
  await clearAttempts(deps.db, [`signin:email:${profile.email}`]);
  const token = await openSession(deps.db, profile.id, seen, now);
  return { token, user: toSessionUser(profile) };
}

export async function resendVerification(deps: AppDeps, userId: string): Promise<void> {
  const now = deps.now();
  await takeAttempts(
    deps.db,
    [{ key: `verify-resend:user:${userId}`, rule: RESEND_RULE }],
    now,
    'verificationMails',
  );
  await deps.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, userId));
    if (!profile) throw notFound('account');
    if (profile.emailVerifiedAt) throw conflict('alreadyVerified');
    await sendVerificationMail(tx, deps.config, profile, now);
  });
}

/**
 * Uses a verification link: marks the account's address verified, or applies the e-mail change it was sent
 * for. Works without a session: the link itself is the proof.
 */
export async function verifyEmail(deps: AppDeps, token: string): Promise<TVerifyEmailResponse> {
  const now = deps.now();
  const found = await findLiveToken(deps.db, token, ['email_verification', 'email_change'], now);
  if (!found || found.profile.deletedAt) throw invalidToken();
  if (found.profile.accountStatus !== 'active') throw await accountSuspended(deps.db);
  const { token: row, profile } = found;
  if (row.purpose === 'email_verification') {
    // A link for an address the account no longer has proves nothing about the current one.
    if (row.email !== profile.email) throw invalidToken();
    await deps.db.transaction(async (tx) => {
      if (!(await spendToken(tx, row.id))) throw invalidToken();
      await tx
        .update(userProfiles)
        .set({ emailVerifiedAt: verifiedSince(now), updatedAt: now })
        .where(eq(userProfiles.id, profile.id));
    });
    return { ok: true, email: profile.email, kind: 'verified' };
  }
  const newEmail = row.email;
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await spendToken(tx, row.id))) throw invalidToken();
      await tx.update(users).set({ email: newEmail }).where(eq(users.id, profile.id));
      await tx
        .update(userProfiles)
        .set({ email: newEmail, emailVerifiedAt: now, updatedAt: now })
        .where(eq(userProfiles.id, profile.id));
      // Links issued for the old address no longer apply.
      await deleteTokens(tx, profile.id, 'password_reset');
    });
  } catch (err) {
    // Someone registered the address since the change was asked for: the unique index refuses it, and the
    // rolled-back transaction leaves the link unspent.
    if (isUniqueViolation(err)) throw conflict('emailTaken');
    throw err;
  }
  return { ok: true, email: newEmail, kind: 'email_changed' };
}
