import type { AUDIT_TARGET_TYPES, TAuditAction } from '#shared/contract/admin.js';
import type { Tx } from '#server/db/client.js';
import { adminAuditLogs } from '#server/db/schema.js';

/**
 * Who made an admin change: the admin's id (the admin panel), or the admin and the admin API key the change
 * came through (/api/v1/admin/), which the entry names.
 */
export type AdminActor = string | { adminId: string; apiKey: { id: string; name: string } };

/** The admin's own id, whether they acted in the panel or through an admin API key. */
export function actorUserId(actor: AdminActor): string {
  return typeof actor === 'string' ? actor : actor.adminId;
}

export interface AuditEntry {
  adminId: AdminActor;
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
  const actor = entry.adminId;
  await tx.insert(adminAuditLogs).values({
    adminUserId: actorUserId(actor),
    actionType: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: typeof actor === 'string' ? entry.details : { ...entry.details, apiKey: actor.apiKey },
  });
}
