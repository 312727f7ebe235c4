import type { Job } from '#server/jobs/scheduler.js';
import { deliverDueRuns } from './dispatch.js';
import { expireOverdueRuns } from './sweeper.js';
import { tallyRuns } from './tally.js';

/** Webhook retries that are due (5 s and 5 min after a failed attempt, or a crashed instance's lease). */
export const webhookRetryJob: Job = { name: 'webhook-retries', intervalMs: 2_000, run: deliverDueRuns };

/** Runs past their window are expired and refunded. */
export const runExpiryJob: Job = { name: 'run-expiry', intervalMs: 30_000, run: expireOverdueRuns };

/** Started runs counted into their workflows' execution_count (the admin screens also count on read). */
export const runTallyJob: Job = { name: 'run-tally', intervalMs: 5_000, run: (deps) => tallyRuns(deps.db) };
