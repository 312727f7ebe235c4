/**
 * What other modules use of the executions module: starting and completing a run (the public API and the
 * MCP server), its events and open states, its tally, and the uploaded answer files of runs being deleted.
 */
// The bell's event stream counts against the same bound and ends with its session like a run's.
export { accessEndedOf, type StreamAccess } from './access-ended.js';
export { completeRun, waitForEnd } from './complete.js';
export { deliverClaimed, retryDeliveryNow, WEBHOOK_TARGET_FIELDS } from './dispatch.js';
export { RUN_EVENTS_SCHEMA, streamRunEvents } from './events.js';
export { getOwnRun, isOpen, toExecution } from './queries.js';
export { runEventsOf } from './run-events.js';
export {
  discardTestRun,
  openTestRun,
  refuseTooManyUnspokenChats,
  START_SETTINGS,
  type StartSettings,
  startRun,
  type StartedRun,
} from './start.js';
export { AnswersRefused, problemText, surveyAnswersOrThrow } from './survey-answers.js';
export { tallyRuns } from './tally.js';
export { takeInputFileKeys, takeSavedInputFileKeys } from './input-file-cleanup.js';
export {
  checkFileFor,
  copyFilesForRun,
  fileQuestion,
  type KeptFile,
  maxInputFileBytes,
  type UploadedInput,
} from './input-files.js';
