import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { TIncident, TWorkflowHealth } from '#shared/contract/operations.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { adminAuditLogs, userWorkflows, workflowIncidents } from '#server/db/schema.js';
import { notFound } from '#server/lib/errors.js';
import { healthWindows } from './health.js';

/**
 * Pauses (by hand) or resumes a workflow, audited in the same transaction (`workflow_paused`,
 * `workflow_resumed`). Resuming starts the count of failures in a row again, so one more failure does not
 * pause it at once; an open incident stays open until a run completes. Pausing an already paused workflow
 * keeps its first reason and time.
 */
export async function setPaused(
  db: Db,
  adminId: string,
  workflowId: string,
  paused: boolean,
  now: Date,
): Promise<{ pausedAt: string | null; pausedReason: 'auto' | 'manual' | null }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ pausedAt: userWorkflows.pausedAt, pausedReason: userWorkflows.pausedReason })
      .from(userWorkflows)
      .where(eq(userWorkflows.id, workflowId))
      .for('update');
    if (!before) throw notFound('workflow');
    const [after] = await tx
      .update(userWorkflows)
      .set(
        paused
          ? {
              pausedAt: before.pausedAt ?? now,
              pausedReason: before.pausedReason ?? 'manual',
              updatedAt: now,
            }
          : { pausedAt: null, pausedReason: null, consecutiveFailures: 0, updatedAt: now },
      )
      .where(eq(userWorkflows.id, workflowId))
      .returning({ pausedAt: userWorkflows.pausedAt, pausedReason: userWorkflows.pausedReason });
    if (!after) throw notFound('workflow');
    if ((before.pausedAt === null) === paused) {
      await tx.insert(adminAuditLogs).values({
        adminUserId: adminId,
        actionType: paused ? 'workflow_paused' : 'workflow_resumed',
        targetType: 'workflow',
        targetId: workflowId,
        details: paused ? {} : { pausedReason: before.pausedReason },
      });
    }
    return { pausedAt: after.pausedAt?.toISOString() ?? null, pausedReason: after.pausedReason };
  });
}

/** Incidents with their workflow's name, newest first: the open ones, or a workflow's latest. */
async function incidents(db: DbOrTx, where: SQL | undefined, limit: number): Promise<TIncident[]> {
  const rows = await db
    .select({ incident: workflowIncidents, name: userWorkflows.name })
    .from(workflowIncidents)
    .innerJoin(userWorkflows, eq(userWorkflows.id, workflowIncidents.workflowId))
    .where(where)
    .orderBy(desc(workflowIncidents.openedAt))
    .limit(limit);
  return rows.map(({ incident, name }) => ({
    id: incident.id,
    workflow: { id: incident.workflowId, name },
    kind: incident.kind,
    openedAt: incident.openedAt.toISOString(),
    resolvedAt: incident.resolvedAt?.toISOString() ?? null,
  }));
}

export const openIncidents = (db: DbOrTx) => incidents(db, isNull(workflowIncidents.resolvedAt), 100);

/** GET /api/admin/workflows/{id}/health */
export async function workflowHealth(db: DbOrTx, workflowId: string, now: Date): Promise<TWorkflowHealth> {
  const [workflow] = await db
    .select({
      pausedAt: userWorkflows.pausedAt,
      pausedReason: userWorkflows.pausedReason,
      consecutiveFailures: userWorkflows.consecutiveFailures,
    })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  if (!workflow) throw notFound('workflow');
  const windows = await healthWindows(db, workflowId, now);
  return {
    workflowId,
    pausedAt: workflow.pausedAt?.toISOString() ?? null,
    pausedReason: workflow.pausedReason,
    consecutiveFailures: workflow.consecutiveFailures,
    ...windows,
    incidents: await incidents(db, and(eq(workflowIncidents.workflowId, workflowId)), 20),
  };
}
