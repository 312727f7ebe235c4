import type { AppDeps } from '#server/types.js';
import { disconnectApp } from '../oauth/service.js';
import { type AdminActor, writeAudit } from './audit.js';

/** An admin revokes one of a person's connected apps at once, in the audit log with the app's name. */
export async function revokeConnectedAppAsAdmin(
  deps: AppDeps,
  adminId: AdminActor,
  userId: string,
  appId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const gone = await disconnectApp(tx, userId, appId);
    await writeAudit(tx, {
      adminId,
      action: 'oauth_grant_revoked',
      targetType: 'user',
      targetId: userId,
      details: { app: gone.name, clientId: gone.clientId },
    });
  });
}
