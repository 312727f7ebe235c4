/**
 * What other modules use of the executions module: settling a run, its open states, its tally, and
 * the uploaded answer files of runs being deleted.
 */
export { isOpen, openStatusFilter } from './queries.js';
export { settleRun, type ResultFields } from './settle.js';
export { tallyRuns } from './tally.js';
export { takeInputFileKeys } from './input-file-cleanup.js';
