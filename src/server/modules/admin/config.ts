import { asc } from 'drizzle-orm';
import type { TAdminConfigEntry } from '#shared/contract/admin.js';
import type { Db } from '#server/db/client.js';
import { adminConfig } from '#server/db/schema.js';
import { setSetting } from '../settings/service.js';
import { writeAudit } from './audit.js';
import { iso } from '#server/lib/dates.js';

function toEntry(row: typeof adminConfig.$inferSelect): TAdminConfigEntry {
  return {
    id: row.id,
    key: row.key,
    description: row.description,
    value: row.value,
    updatedAt: iso(row.updatedAt),
  };
}

export async function listConfig(db: Db): Promise<TAdminConfigEntry[]> {
  const rows = await db.select().from(adminConfig).orderBy(asc(adminConfig.key));
  return rows.map(toEntry);
}

/** Validates the value with its key's schema, stores it and audits old and new value together. */
export async function updateConfig(
  db: Db,
  adminId: string,
  id: string,
  value: unknown,
): Promise<TAdminConfigEntry> {
  return db.transaction(async (tx) => {
    const { entry, change } = await setSetting(tx, id, value, adminId);
    await writeAudit(tx, {
      adminId,
      action: 'config_updated',
      targetType: 'config',
      targetId: id,
      details: { key: change.key, from: change.previousValue, to: change.value },
    });
    return toEntry(entry);
  });
}
