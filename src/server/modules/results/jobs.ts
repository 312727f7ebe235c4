import type { Job } from '#server/jobs/scheduler.js';
import { expireResultFiles } from './retention.js';

/** Result files past their retention are deleted, and removals a store error held up are retried. */
export const resultRetentionJob: Job = {
  name: 'result-retention',
  intervalMs: 5 * 60_000,
  run: expireResultFiles,
};
