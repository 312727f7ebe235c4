import type { AUDIT_TARGET_TYPES, TAuditAction } from '#shared/contract/admin.js';
import type { Tx } from '#server/db/client.js';
import { adminAuditLogs } from '#server/db/schema.js';

export interface AuditEntry {
  adminId: string;
  action: TAuditAction;
  targetType: (typeof AUDIT_TARGET_TYPES)[number];
  targetId: string;
  /** What changed, for a person reading the log later. Never a secret, a password or a token. */
  details: Record<string, unknown>;
}

/**
 * Records an admin mutation. It takes a transaction handle on purpose: the row must commit or roll back
 * together with the change it describes.
 */
export async function writeAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(adminAuditLogs).values({
    adminUserId: entry.adminId,
    actionType: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details,
  });
}
