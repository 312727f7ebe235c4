import { and, eq, inArray, isNotNull, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { runInputFiles, storageDeletions, workflowExecutions } from '#server/db/schema.js';
import { resultStorageFor } from '#server/providers/storage/index.js';
import type { AppDeps } from '#server/types.js';

/** Files expired or removed per transaction and per pass: a sweep after a long outage catches up in steps. */
const BATCH = 200;

/**
 * Notes stored files for removal, in the caller's transaction: if the transaction rolls back nothing is
 * removed, and once it commits the removal survives a crash until a store call has really done it.
 */
export async function queueFileDeletions(tx: DbOrTx, keys: Array<string | null>): Promise<void> {
  const wanted = [...new Set(keys.filter((k): k is string => k !== null))];
  if (wanted.length === 0) return;
  await tx
    .insert(storageDeletions)
    .values(wanted.map((key) => ({ key })))
    .onConflictDoNothing();
}

/**
 * Removes queued files from the store and then their queue rows; `keys` limits it to one change's files
 * (removed right after its commit), none means every queued file (the job's retry of what failed before).
 * A store error leaves the row for the next pass. Returns how many were removed.
 */
export async function removeQueuedFiles(deps: AppDeps, keys?: string[]): Promise<number> {
  if (keys && keys.length === 0) return 0;
  const queued = await deps.db
    .select({ key: storageDeletions.key })
    .from(storageDeletions)
    .where(keys ? inArray(storageDeletions.key, keys) : undefined)
    .orderBy(storageDeletions.createdAt)
    .limit(BATCH);
  const storage = resultStorageFor(deps.config);
  const removed: string[] = [];
  for (const { key } of queued) {
    try {
      await storage.remove(key);
      removed.push(key);
    } catch {
      // Kept in the queue: the store may be briefly unreachable; the job tries again.
    }
  }
  if (removed.length > 0)
    await deps.db.delete(storageDeletions).where(inArray(storageDeletions.key, removed));
  return removed.length;
}

/**
 * Files people uploaded as survey answers, of runs that have ended: their link only works while the run is
 * running, so nothing can read them any more. Their rows go and their keys are queued, in one transaction.
 */
async function releaseEndedRunInputFiles(deps: AppDeps): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const ended = await tx
      .select({ id: runInputFiles.id, key: runInputFiles.storageKey })
      .from(runInputFiles)
      .innerJoin(workflowExecutions, eq(workflowExecutions.id, runInputFiles.executionId))
      .where(notInArray(workflowExecutions.status, ['pending', 'running']))
      .orderBy(runInputFiles.createdAt)
      .limit(BATCH)
      .for('update', { of: runInputFiles, skipLocked: true });
    if (ended.length === 0) return 0;
    await queueFileDeletions(
      tx,
      ended.map((f) => f.key),
    );
    await tx.delete(runInputFiles).where(
      inArray(
        runInputFiles.id,
        ended.map((f) => f.id),
      ),
    );
    return ended.length;
  });
}

/**
 * The retention job: runs whose file is past its expiry lose the file (the run keeps its expiry date, so it
 * says the file expired), ended runs lose the files uploaded as their answers, then every queued removal is
 * carried out. Rows are claimed with SKIP LOCKED, so instances running it at once take different ones.
 */
export async function expireResultFiles(
  deps: AppDeps,
): Promise<{ expired: number; inputFiles: number; removed: number }> {
  const now = deps.now();
  const expired = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: workflowExecutions.id, key: workflowExecutions.resultPath })
      .from(workflowExecutions)
      .where(and(isNotNull(workflowExecutions.resultPath), lte(workflowExecutions.fileExpiresAt, now)))
      .orderBy(workflowExecutions.fileExpiresAt)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    await queueFileDeletions(
      tx,
      due.map((d) => d.key),
    );
    await tx
      .update(workflowExecutions)
      .set({ resultPath: null })
      .where(
        inArray(
          workflowExecutions.id,
          due.map((d) => d.id),
        ),
      );
    return due.length;
  });
  let inputFiles = 0;
  for (;;) {
    const n = await releaseEndedRunInputFiles(deps);
    inputFiles += n;
    if (n < BATCH) break;
  }
  let removed = 0;
  for (;;) {
    const n = await removeQueuedFiles(deps);
    removed += n;
    if (n < BATCH) break;
  }
  return { expired, inputFiles, removed };
}

/** How many files wait in the removal queue (an operator's and the tests' check that nothing is stuck). */
export async function queuedFileDeletions(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(storageDeletions);
  return row?.n ?? 0;
}

/**
 * The keys of a workflow's runs' stored files, read before the runs go with it. Every run of the workflow is
 * locked, not only those with a file: a result arriving meanwhile waits, then finds its run gone and removes
 * its own new file, instead of saving it onto a row the cascade then deletes with the key.
 */
export async function workflowResultKeys(tx: DbOrTx, workflowId: string): Promise<string[]> {
  const rows = await tx
    .select({ key: workflowExecutions.resultPath })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.workflowId, workflowId))
    .for('update');
  return rows.map((r) => r.key).filter((k): k is string => k !== null);
}
