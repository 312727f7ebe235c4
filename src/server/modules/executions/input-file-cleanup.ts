import { inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { runInputFiles, savedInputFiles, savedInputs, workflowExecutions } from '#server/db/schema.js';

/**
 * The storage keys of the uploaded files of the runs `where` selects, their rows deleted: for whoever removes
 * runs (or their data), to queue for removal in the same transaction (results' queueFileDeletions).
 */
export async function takeInputFileKeys(tx: DbOrTx, runsWhere: SQL): Promise<string[]> {
  const runs = tx.select({ id: workflowExecutions.id }).from(workflowExecutions).where(runsWhere);
  const removed = await tx
    .delete(runInputFiles)
    .where(inArray(runInputFiles.executionId, runs))
    .returning({ key: runInputFiles.storageKey });
  return removed.map((r) => r.key);
}

/**
 * The storage keys of the files kept with the saved answers `where` selects, their rows deleted: for whoever
 * removes saved answers (an account, a workflow), to queue in the same transaction (the cascade from
 * saved_inputs would drop the rows and lose the keys).
 */
export async function takeSavedInputFileKeys(tx: DbOrTx, savedWhere: SQL): Promise<string[]> {
  const saved = tx.select({ id: savedInputs.id }).from(savedInputs).where(savedWhere);
  const removed = await tx
    .delete(savedInputFiles)
    .where(inArray(savedInputFiles.savedInputId, saved))
    .returning({ key: savedInputFiles.storageKey });
  return removed.map((r) => r.key);
}
