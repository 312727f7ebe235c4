/** What other modules use of the executions module: settling a run, its open states, its tally and events. */
export { isOpen, openStatusFilter } from './queries.js';
export { notifyRunChanged } from './run-events.js';
export { settleRun, type ResultFields } from './settle.js';
export { tallyRuns } from './tally.js';
