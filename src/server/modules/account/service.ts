import { and, asc, desc, eq, gt, ne } from 'drizzle-orm';
import type {
  TAccountExport,
  TAccountSession,
  TEmailChange,
  TPasswordChange,
  TProfileUpdate,
} from '#shared/contract/account.js';
import type { TSessionUser } from '#shared/contract/auth.js';
import {
  accountTokens,
  creditTransactions,
  emailOutbox,
  notifications,
  idempotencyKeys,
  savedInputs,
  sessions,
  subscriptions,
  userProfiles,
  users,
  workflowExecutions,
} from '#server/db/schema.js';
import { ledgerNoteText } from '#shared/i18n/ledger-notes.js';
import { parseUserAgent } from '#server/lib/device.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import { AppError, badRequest, conflict, notFound } from '#server/lib/errors.js';
import { newToken } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import {
  assertUsablePassword,
  deleteTokens,
  hashPassword,
  sendEmailChangeMails,
  sendPasswordChangedMail,
  takeAttempts,
  toSessionUser,
  verifyPassword,
  type ThrottleRule,
} from '../auth/service.js';
import { revokeAccountAccess } from '../apikeys/service.js';
import { checkedTimezone } from '../schedules/service.js';
import { takeInputFileKeys, takeSavedInputFileKeys } from '../executions/service.js';
import { enqueueMail } from '../mail/service.js';
import { queueFileDeletions, removeQueuedFiles } from '../results/service.js';
import { deleteReviewsOf, reviewsOf } from '../workflows/service.js';

/** Password checks from a signed-in session: a stolen session must not become a fast password oracle. */
const PASSWORD_CHECK_RULE: ThrottleRule = { limit: 10, windowMs: 15 * 60 * 1000 };

async function loadAccount(deps: AppDeps, userId: string) {
  const [row] = await deps.db
    .select({ user: users, profile: userProfiles })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.id, users.id))
    .where(eq(users.id, userId));
  if (!row) throw notFound('account');
  return row;
}

/** Checks the account's password; a wrong one is a 400 on `field`, so the web form can point at it. */
async function checkPassword(deps: AppDeps, userId: string, password: string, field: string) {
  await takeAttempts(
    deps.db,
    [{ key: `account-password:user:${userId}`, rule: PASSWORD_CHECK_RULE }],
    deps.now(),
    'wrongPasswords',
  );
  const account = await loadAccount(deps, userId);
  if (!(await verifyPassword(account.user.hashedPassword, password))) {
    throw badRequest('wrongPassword', { fields: [{ field, message: 'incorrect' }] });
  }
  return account;
}

export async function updateProfile(
  deps: AppDeps,
  userId: string,
  input: TProfileUpdate,
): Promise<TSessionUser> {
  const [profile] = await deps.db
    .update(userProfiles)
    .set({
      ...(input.fullName !== undefined ? { fullName: input.fullName } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.timezone !== undefined ? { timezone: checkedTimezone(input.timezone) } : {}),
      updatedAt: deps.now(),
    })
    .where(eq(userProfiles.id, userId))
    .returning();
  if (!profile) throw notFound('account');
  return toSessionUser(profile);
}

/**
 * Sets a new password; every other session of the account ends, its API keys are revoked unless the person
 * keeps them (`keepApiAccess`), and a notice naming the revoked keys is mailed.
 */
export async function changePassword(
  deps: AppDeps,
  userId: string,
  currentSessionId: string,
  input: TPasswordChange,
): Promise<void> {
  await checkPassword(deps, userId, input.currentPassword, 'currentPassword');
  assertUsablePassword(input.newPassword, 'newPassword');
  const hashedPassword = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ hashedPassword }).where(eq(users.id, userId));
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)));
    await deleteTokens(tx, userId, 'password_reset');
    const revoked = input.keepApiAccess ? [] : (await revokeAccountAccess(tx, userId)).apiKeys;
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, userId));
    await sendPasswordChangedMail(tx, deps.config, profile!, revoked);
  });
}

/** Starts an e-mail change: it applies only when the link mailed to the new address is opened. */
export async function requestEmailChange(
  deps: AppDeps,
  userId: string,
  input: TEmailChange,
): Promise<{ ok: true; pendingEmail: string }> {
  const { profile } = await checkPassword(deps, userId, input.password, 'password');
  if (input.newEmail === profile.email) {
    throw badRequest('sameEmail', {
      fields: [{ field: 'newEmail', message: 'same' }],
    });
  }
  const [taken] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, input.newEmail));
  if (taken) throw conflict('emailTaken');
  await deps.db.transaction((tx) =>
    sendEmailChangeMails(tx, deps.config, profile, input.newEmail, deps.now()),
  );
  return { ok: true, pendingEmail: input.newEmail };
}

export async function revokeOtherSessions(
  deps: AppDeps,
  userId: string,
  currentSessionId: string,
): Promise<number> {
  const revoked = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
    .returning({ id: sessions.id });
  return revoked.length;
}

/** Sessions kept per account are not capped elsewhere; the list shows this many, most recently used first. */
const SESSIONS_LISTED_MAX = 100;

/** The account's signed-in devices; sessions past either limit (waiting for the clean-up job) are left out. */
export async function listSessions(
  deps: AppDeps,
  userId: string,
  currentSessionId: string,
): Promise<TAccountSession[]> {
  const now = deps.now();
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .limit(SESSIONS_LISTED_MAX);
  return rows.map((r) => ({
    id: r.id,
    ...parseUserAgent(r.userAgent),
    country: r.country,
    network: r.network,
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: iso(r.createdAt),
    current: r.id === currentSessionId,
  }));
}

/**
 * Ends one session of the account. Another person's session, or one already gone, is 404 alike: the answer
 * says nothing about sessions that are not the caller's.
 */
export async function revokeSession(deps: AppDeps, userId: string, sessionId: string): Promise<void> {
  const [gone] = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (!gone) throw notFound('session');
}

/** Everything the account holds, as one document (the person's right to a copy of their data). */
export async function exportAccount(deps: AppDeps, userId: string): Promise<TAccountExport> {
  const { profile } = await loadAccount(deps, userId);
  const [runs, transactions, plans, reviews] = await Promise.all([
    deps.db
      .select()
      .from(workflowExecutions)
      .where(eq(workflowExecutions.userId, userId))
      .orderBy(asc(workflowExecutions.createdAt)),
    deps.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
      .orderBy(asc(creditTransactions.createdAt)),
    deps.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(subscriptions.createdAt)),
    reviewsOf(deps.db, userId),
  ]);
  return {
    exportedAt: deps.now().toISOString(),
    profile: {
      id: profile.id,
      email: profile.email,
      fullName: profile.fullName,
      language: profile.language,
      credits: profile.credits,
      emailVerified: profile.emailVerifiedAt !== null,
      createdAt: profile.createdAt.toISOString(),
      lastLoginAt: isoOrNull(profile.lastLoginAt),
    },
    runs: runs.map((r) => ({
      id: r.id,
      workflowId: r.workflowId,
      status: r.status,
      language: r.language,
      inputData: r.inputData ?? null,
      outputData: r.outputData ?? null,
      outputType: r.outputType,
      outputFilename: r.outputFilename,
      creditsUsed: r.creditsUsed,
      createdAt: r.createdAt.toISOString(),
      completedAt: isoOrNull(r.completedAt),
    })),
    transactions: transactions.map((t) => ({
      id: t.id,
      amount: t.amount,
      type: t.transactionType,
      planName: t.planName,
      usdAmount: t.usdAmount,
      notes: ledgerNoteText('en', { kind: t.noteKind, params: t.noteParams, notes: t.notes }),
      noteKind: t.noteKind,
      noteParams: t.noteParams,
      workflowId: t.workflowId,
      createdAt: t.createdAt.toISOString(),
    })),
    subscriptions: plans.map((s) => ({
      id: s.id,
      planName: s.planName,
      creditsPerMonth: s.creditsPerMonth,
      priceUsd: s.priceUsd,
      status: s.status,
      nextRenewalDate: s.nextRenewalDate.toISOString(),
      createdAt: s.createdAt.toISOString(),
    })),
    reviews,
  };
}

/**
 * Deletes the account as a person sees it: they are signed out, their name, address, answers and results are
 * erased and the address is free to register again. The ledger rows stay (on the anonymised account), so the
 * books still add up; open runs are settled by the expiry job like any other.
 */
export async function deleteAccount(deps: AppDeps, userId: string, password: string): Promise<void> {
  const { profile } = await checkPassword(deps, userId, password, 'password');
  if (profile.isAdmin) {
    throw new AppError('CONFLICT', 'adminCannotDelete');
  }
  const now = deps.now();
  const anonymous = `deleted-${userId}@deleted.invalid`;
  const files = await deps.db.transaction(async (tx) => {
    // An unusable hash: no password verifies against it.
    await tx
      .update(users)
      .set({ email: anonymous, hashedPassword: `deleted:${newToken(16)}` })
      .where(eq(users.id, userId));
    await tx
      .update(userProfiles)
      .set({
        email: anonymous,
        fullName: null,
        accountStatus: 'suspended',
        emailVerifiedAt: null,
        notificationPreferences: {},
        lowBalanceThreshold: null,
        lowBalanceWarned: false,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(userProfiles.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await revokeAccountAccess(tx, userId);
    await deleteReviewsOf(tx, userId);
    await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
    await tx.delete(emailOutbox).where(eq(emailOutbox.userId, userId));
    await tx.delete(notifications).where(eq(notifications.userId, userId));
    await tx
      .update(subscriptions)
      .set({ status: 'cancelled', updatedAt: now })
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')));
    const withFiles = await tx
      .select({ key: workflowExecutions.resultPath })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.userId, userId));
    await tx
      .update(workflowExecutions)
      .set({
        inputData: null,
        outputData: null,
        errorMessage: null,
        progressMessage: null,
        outputUrl: null,
        outputFilename: null,
        resultPath: null,
      })
      .where(eq(workflowExecutions.userId, userId));
    // Free-text notes of the person's own ledger rows are kept: they name plans and runs, not the person.
    await enqueueMail(tx, deps.config, {
      kind: 'account_deleted',
      to: profile.email,
      userId: null,
      language: profile.language,
      params: { name: profile.fullName ?? profile.email },
    });
    // Files uploaded as survey answers go with the other contents of the person's runs.
    const uploaded = await takeInputFileKeys(tx, eq(workflowExecutions.userId, userId));
    // So do the person's saved answers, their files and (by the cascade) their schedules.
    const saved = await takeSavedInputFileKeys(tx, eq(savedInputs.userId, userId));
    await tx.delete(savedInputs).where(eq(savedInputs.userId, userId));
    const keys = [
      ...withFiles.map((f) => f.key).filter((k): k is string => k !== null),
      ...uploaded,
      ...saved,
    ];
    await queueFileDeletions(tx, keys);
    return keys;
  });
  // A store error leaves them queued for the retention job.
  await removeQueuedFiles(deps, files).catch(() => 0);
}
