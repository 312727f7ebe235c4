import { eq, sql } from 'drizzle-orm';
import type {
  TAdjustCreditsRequest,
  TAdjustCreditsResponse,
  TAdminUser,
  TAdminUserUpdate,
} from '#shared/contract/admin.js';
import type { Db } from '#server/db/client.js';
import { userProfiles } from '#server/db/schema.js';
import { conflict, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { revokeAccountAccess } from '../apikeys/service.js';
import { revokeUserSessions } from '../auth/service.js';
import { applyLedgerEntry } from '../credits/service.js';
import { writeAudit } from './audit.js';
import { toAdminUser } from './lists.js';

/** Adds or takes credits as an `admin_adjustment` ledger row (notes = reason); never below zero (409). */
export async function adjustCredits(
  deps: Pick<AppDeps, 'db' | 'metrics'>,
  adminId: string,
  input: TAdjustCreditsRequest,
): Promise<TAdjustCreditsResponse> {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ credits: userProfiles.credits })
      .from(userProfiles)
      .where(eq(userProfiles.id, input.userId));
    if (!user) throw notFound('user');
    const credits = await applyLedgerEntry(
      tx,
      {
        userId: input.userId,
        amount: input.amount,
        type: 'admin_adjustment',
        noteKind: 'admin_adjustment',
        notes: input.reason,
      },
      deps.metrics,
    );
    if (credits === null) {
      throw conflict({ key: 'balanceBelowZero', params: { credits: user.credits, taken: -input.amount } });
    }
    await writeAudit(tx, {
      adminId,
      action: 'credits_adjusted',
      targetType: 'user',
      targetId: input.userId,
      details: {
        amount: input.amount,
        reason: input.reason,
        balanceBefore: credits - input.amount,
        balanceAfter: credits,
      },
    });
    return { userId: input.userId, credits };
  });
}

/**
 * Changes a user's status or role. Suspending revokes every session and API key of the user in the same
 * transaction, so their open tabs, scripts and streams stop working at once (the audit row names the keys). An admin can neither suspend nor demote themself (409): the
 * panel must never lock out the person using it.
 */
export async function updateUser(
  db: Db,
  adminId: string,
  userId: string,
  change: TAdminUserUpdate,
): Promise<TAdminUser> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(userProfiles).where(eq(userProfiles.id, userId)).for('update');
    if (!current) throw notFound('user');
    if (userId === adminId && change.accountStatus === 'suspended') {
      throw conflict('cannotSuspendSelf');
    }
    if (userId === adminId && change.isAdmin === false) {
      throw conflict('cannotRemoveOwnAdmin');
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (change.accountStatus !== undefined && change.accountStatus !== current.accountStatus) {
      changes.accountStatus = { from: current.accountStatus, to: change.accountStatus };
    }
    if (change.isAdmin !== undefined && change.isAdmin !== current.isAdmin) {
      changes.isAdmin = { from: current.isAdmin, to: change.isAdmin };
    }
    if (Object.keys(changes).length === 0) return toAdminUser(current);

    const [updated] = await tx
      .update(userProfiles)
      .set({
        ...(changes.accountStatus ? { accountStatus: change.accountStatus } : {}),
        ...(changes.isAdmin ? { isAdmin: change.isAdmin } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(userProfiles.id, userId))
      .returning();
    if (!updated) throw notFound('user');
    const suspended = changes.accountStatus?.to === 'suspended';
    let revoked: { revokedApiKeys: string[]; revokedOAuthApps: string[] } | undefined;
    if (suspended) {
      await revokeUserSessions(tx, userId);
      const access = await revokeAccountAccess(tx, userId);
      revoked = { revokedApiKeys: access.apiKeys, revokedOAuthApps: access.oauthApps };
    }
    await writeAudit(tx, {
      adminId,
      action: suspended ? 'user_suspended' : 'user_updated',
      targetType: 'user',
      targetId: userId,
      details: { email: current.email, changes, ...revoked },
    });
    return toAdminUser(updated);
  });
}
