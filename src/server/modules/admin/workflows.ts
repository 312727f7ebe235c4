import { isDeepStrictEqual } from 'node:util';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { TAdminWorkflowDetail, TAdminWorkflowUpdate, TWorkflowSecret } from '#shared/contract/admin.js';
import { ZWorkflowInput, type TWorkflowInputParsed } from '#shared/contract/workflows.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { savedInputs, userProfiles, users, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { badRequest, notFound } from '#server/lib/errors.js';
import type { Metrics } from '#server/lib/metrics.js';
import { applyLedgerEntry } from '../credits/service.js';
import { takeInputFileKeys, takeSavedInputFileKeys } from '../executions/service.js';
import { queueFileDeletions, removeQueuedFiles, workflowResultKeys } from '../results/service.js';
import {
  headerTokenFor,
  createWorkflow,
  deleteWorkflow,
  getVersion,
  recordVersionIfChanged,
  rotateWorkflowSecret,
  setWorkflowActive,
  setWorkflowArchived,
  updateWorkflow,
  type WorkflowRow,
} from '../workflows/service.js';
import { actorUserId, type AdminActor, writeAudit } from './audit.js';
import { isoOrNull } from '#server/lib/dates.js';
import type { AppDeps } from '#server/types.js';
import { ownerColumns, toAdminWorkflow } from './lists.js';

/** Fields whose old and new values are written into the audit log; the others are only named there. */
const AUDITED_VALUES = [
  'userId',
  'name',
  'category',
  'isPublic',
  'isActive',
  'creditsPerExecution',
  'interactionType',
] as const;

async function assertOwnerExists(tx: DbOrTx, userId: string): Promise<void> {
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!owner) {
    throw badRequest('ownerMissing', {
      fields: [{ field: 'userId', message: 'no such user' }],
    });
  }
}

async function toDetail(db: DbOrTx, w: WorkflowRow): Promise<TAdminWorkflowDetail> {
  const [owner] = w.userId
    ? await db.select(ownerColumns).from(userProfiles).where(eq(userProfiles.id, w.userId))
    : [];
  return {
    ...toAdminWorkflow(w, owner ?? null),
    userId: w.userId,
    welcomeMessage: w.welcomeMessage ?? null,
    aiPrompt: w.aiPrompt,
    surveyQuestions: w.surveyQuestions,
  };
}

async function findWorkflow(db: DbOrTx, id: string, lock = false): Promise<WorkflowRow> {
  const query = db.select().from(userWorkflows).where(eq(userWorkflows.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('workflow');
  return row;
}

export async function getWorkflowDetail(db: Db, id: string): Promise<TAdminWorkflowDetail> {
  return toDetail(db, await findWorkflow(db, id));
}

export async function createWorkflowAsAdmin(
  db: Db,
  adminId: AdminActor,
  input: TWorkflowInputParsed,
): Promise<TAdminWorkflowDetail> {
  return db.transaction(async (tx) => {
    await assertOwnerExists(tx, input.userId);
    const row = await createWorkflow(tx, input, actorUserId(adminId));
    await writeAudit(tx, {
      adminId,
      action: 'workflow_created',
      targetType: 'workflow',
      targetId: row.id,
      details: {
        name: row.name,
        ownerId: row.userId,
        category: row.category,
        interactionType: row.interactionType,
        isPublic: row.isPublic,
        isActive: row.isActive,
        creditsPerExecution: row.creditsPerExecution,
      },
    });
    return toDetail(tx, row);
  });
}

/** The stored workflow as the form's input, so a partial change can be merged and checked as a whole. */
function asInput(w: WorkflowRow): Record<string, unknown> {
  return {
    userId: w.userId,
    name: w.name,
    description: w.description ?? null,
    category: w.category,
    webhookUrl: w.webhookUrl,
    isPublic: w.isPublic,
    isActive: w.isActive,
    creditsPerExecution: w.creditsPerExecution,
    interactionType: w.interactionType,
    welcomeMessage: w.welcomeMessage ?? null,
    aiPrompt: w.aiPrompt,
    surveyQuestions: w.surveyQuestions,
  };
}

// Deep equality that ignores key order (jsonb hands objects back with its own key order).
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/**
 * Applies a partial change. `{ isActive }` alone is a status change (`workflow_status_changed`); anything
 * else is an edit (`workflow_updated`). The merged workflow must pass the same rules as a new one.
 */
export async function updateWorkflowAsAdmin(
  db: Db,
  adminId: AdminActor,
  id: string,
  patch: TAdminWorkflowUpdate,
): Promise<TAdminWorkflowDetail> {
  return db.transaction(async (tx) => {
    const current = await findWorkflow(tx, id, true);
    const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(given).length === 1 && patch.isActive !== undefined) {
      // Switching to the state it is already in changes nothing and records nothing.
      if (patch.isActive === current.isActive) return toDetail(tx, current);
      return changeStatus(tx, adminId, current, patch.isActive);
    }
    const before = asInput(current);
    const parsed = ZWorkflowInput.safeParse({ ...before, ...given });
    if (!parsed.success) throw invalidWorkflow(parsed.error.issues);
    if (patch.userId !== undefined && patch.userId !== current.userId)
      await assertOwnerExists(tx, patch.userId);
    const after = parsed.data as unknown as Record<string, unknown>;
    const changedFields = Object.keys(given).filter((k) => !same(before[k], after[k]));
    if (changedFields.length === 0) return toDetail(tx, current);
    const saved = await updateWorkflow(tx, id, parsed.data);
    if (!saved) throw notFound('workflow');
    // A change to what a run uses makes a new version; owner and visibility alone do not.
    const row = await recordVersionIfChanged(tx, current, saved, actorUserId(adminId));
    const changes = Object.fromEntries(
      AUDITED_VALUES.filter((k) => changedFields.includes(k)).map((k) => [
        k,
        { from: before[k], to: after[k] },
      ]),
    );
    await writeAudit(tx, {
      adminId,
      action: 'workflow_updated',
      targetType: 'workflow',
      targetId: id,
      details: { name: row.name, changedFields, changes, version: row.version },
    });
    return toDetail(tx, row);
  });
}

/** The merged form failed the create rules: 400 with each field named. */
function invalidWorkflow(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const fields = issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message }));
  return badRequest(
    { key: 'invalidWorkflow', params: { fields: fields.map((f) => f.field || f.message).join(', ') } },
    { fields },
  );
}

/**
 * Restores an earlier version: what it kept replaces what a run uses now, as a new version that says which one
 * it copied (history is never rewritten), audited as `workflow_version_restored`. Owner, visibility, status and
 * the secret stay as they are. Restoring what is already current changes nothing and records nothing.
 */
export async function restoreVersionAsAdmin(
  db: Db,
  adminId: string,
  id: string,
  version: number,
): Promise<TAdminWorkflowDetail> {
  return db.transaction(async (tx) => {
    const current = await findWorkflow(tx, id, true);
    const { content } = await getVersion(tx, id, version);
    // The kept version passes today's rules again (a rule may have tightened since it was saved).
    const parsed = ZWorkflowInput.safeParse({ ...asInput(current), ...content });
    if (!parsed.success) throw invalidWorkflow(parsed.error.issues);
    const saved = await updateWorkflow(tx, id, parsed.data);
    if (!saved) throw notFound('workflow');
    const row = await recordVersionIfChanged(tx, current, saved, adminId, version);
    if (row.version === current.version) return toDetail(tx, current);
    await writeAudit(tx, {
      adminId,
      action: 'workflow_version_restored',
      targetType: 'workflow',
      targetId: id,
      details: { name: row.name, restoredFrom: version, from: current.version, version: row.version },
    });
    return toDetail(tx, row);
  });
}

/**
 * Archives a workflow or brings it back, audited (`workflow_archived`, `workflow_unarchived`). Archiving
 * deletes nothing: runs already under way go on, customers keep their runs, results and reviews. Asking for
 * the state it is already in changes nothing and records nothing.
 */
export async function setArchivedAsAdmin(
  db: Db,
  adminId: string,
  id: string,
  archived: boolean,
  now: Date,
): Promise<TAdminWorkflowDetail> {
  return db.transaction(async (tx) => {
    const current = await findWorkflow(tx, id, true);
    if ((current.archivedAt !== null) === archived) return toDetail(tx, current);
    const row = await setWorkflowArchived(tx, id, archived ? now : null);
    if (!row) throw notFound('workflow');
    await writeAudit(tx, {
      adminId,
      action: archived ? 'workflow_archived' : 'workflow_unarchived',
      targetType: 'workflow',
      targetId: id,
      details: { name: row.name },
    });
    return toDetail(tx, row);
  });
}

/** `{ isActive }` alone: needs no other field to be valid (an owner-less workflow can still be switched off). */
async function changeStatus(
  tx: Tx,
  adminId: AdminActor,
  current: WorkflowRow,
  isActive: boolean,
): Promise<TAdminWorkflowDetail> {
  const row = await setWorkflowActive(tx, current.id, isActive);
  if (!row) throw notFound('workflow');
  await writeAudit(tx, {
    adminId,
    action: 'workflow_status_changed',
    targetType: 'workflow',
    targetId: current.id,
    details: { name: row.name, isActive: { from: current.isActive, to: row.isActive } },
  });
  return toDetail(tx, row);
}

/**
 * Refunds the runs that were paid for but can no longer end (they are about to be deleted with their
 * workflow), so no one pays for a run that never happens. Runs already ended keep their outcome.
 */
async function refundOpenRuns(tx: Tx, workflowId: string, metrics: Metrics): Promise<number> {
  const open = await tx
    .select({
      id: workflowExecutions.id,
      userId: workflowExecutions.userId,
      credits: workflowExecutions.creditsUsed,
    })
    .from(workflowExecutions)
    .where(
      and(
        eq(workflowExecutions.workflowId, workflowId),
        inArray(workflowExecutions.status, ['pending', 'running']),
        gt(workflowExecutions.creditsUsed, 0),
      ),
    );
  for (const run of open) {
    await applyLedgerEntry(
      tx,
      {
        userId: run.userId,
        amount: run.credits,
        type: 'refund',
        workflowId,
        executionId: run.id,
        noteKind: 'refund_workflow_deleted',
      },
      metrics,
    );
  }
  return open.length;
}

/** Deletes a workflow with its runs; their stored files are queued in the same transaction, removed after it. */
export async function deleteWorkflowAsAdmin(
  deps: AppDeps,
  adminId: AdminActor,
  id: string,
): Promise<{ deletedExecutions: number }> {
  const { deletedExecutions, files } = await deps.db.transaction(async (tx) => {
    const current = await findWorkflow(tx, id, true);
    const refundedRuns = await refundOpenRuns(tx, id, deps.metrics);
    // The runs' result files and uploaded answer files: their rows go now, their bytes once this has committed.
    const files = [
      ...(await workflowResultKeys(tx, id)),
      ...(await takeInputFileKeys(tx, eq(workflowExecutions.workflowId, id))),
      // The files kept with its saved answers, which go with it (the cascade).
      ...(await takeSavedInputFileKeys(tx, eq(savedInputs.workflowId, id))),
    ];
    await queueFileDeletions(tx, files);
    const deletedExecutions = await deleteWorkflow(tx, id);
    if (deletedExecutions === null) throw notFound('workflow');
    await writeAudit(tx, {
      adminId,
      action: 'workflow_deleted',
      targetType: 'workflow',
      targetId: id,
      details: { name: current.name, category: current.category, deletedExecutions, refundedRuns },
    });
    return { deletedExecutions, files };
  });
  // A store error leaves them queued for the retention job; the deletion itself has happened.
  await removeQueuedFiles(deps, files).catch(() => 0);
  return { deletedExecutions };
}

function toSecret(w: WorkflowRow, now: Date): TWorkflowSecret {
  const previousLive = w.previousSecretToken && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now;
  return {
    secretToken: w.secretToken,
    previousSecretExpiresAt: previousLive ? isoOrNull(w.previousSecretExpiresAt) : null,
    headerToken: headerTokenFor(w.secretToken),
  };
}

export async function getWorkflowSecret(db: Db, id: string, now: Date): Promise<TWorkflowSecret> {
  return toSecret(await findWorkflow(db, id), now);
}

export async function rotateSecretAsAdmin(
  db: Db,
  adminId: AdminActor,
  id: string,
  now: Date,
): Promise<TWorkflowSecret> {
  return db.transaction(async (tx) => {
    await findWorkflow(tx, id, true);
    const row = await rotateWorkflowSecret(tx, id, now);
    if (!row) throw notFound('workflow');
    // The audit says that the secret changed and until when the old one signs; never the secrets.
    await writeAudit(tx, {
      adminId,
      action: 'workflow_updated',
      targetType: 'workflow',
      targetId: id,
      details: {
        name: row.name,
        changedFields: ['secretToken'],
        previousSecretExpiresAt: isoOrNull(row.previousSecretExpiresAt),
      },
    });
    return toSecret(row, now);
  });
}
