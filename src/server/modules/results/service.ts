/**
 * What other modules use of the results module: the checks a result's file and data pass, the stored file's
 * download and its deletion. Applying a result to its run is the executions module's (`executions/result.ts`),
 * so this module imports nothing of executions.
 */
// The public API serves a run's file to its key owner.
export { contentDisposition, resultFileFor, sendResultFile } from './download.js';
// Deleting a workflow hands its runs' files to the retention module's queue in the same transaction.
export { queueFileDeletions, removeQueuedFiles, workflowResultKeys } from './retention.js';
// A result's data and a synchronous answer are measured by the same rules (executions) before they are parsed.
export { assertJsonTextDepth, checkOutputData, jsonNestingDepth } from './output-limits.js';
// Result files, and files uploaded as survey answers (executions), are checked by the same rules.
export { allowedExtension, checkResultFile, displayFilename } from './file-check.js';
