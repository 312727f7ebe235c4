import { asc, eq } from 'drizzle-orm';
import { adminAuditLogs } from '#server/db/schema.js';
import type { TestApp } from '#server/test/harness.js';

export async function auditRowsFor(t: TestApp, targetId: string) {
  return t.database.db
    .select()
    .from(adminAuditLogs)
    .where(eq(adminAuditLogs.targetId, targetId))
    .orderBy(asc(adminAuditLogs.createdAt));
}
