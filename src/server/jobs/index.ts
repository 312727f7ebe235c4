import { authCleanupJob } from '../modules/auth/cleanup-job.js';
import { subscriptionRenewalJob } from '../modules/credits/renewal-job.js';
import { runExpiryJob, runTallyJob, webhookRetryJob } from '../modules/executions/jobs.js';
import { mailCleanupJob, mailSendJob } from '../modules/mail/sender.js';
import { resultRetentionJob } from '../modules/results/jobs.js';
import type { Job } from './scheduler.js';

/** Every background job the server runs; each module adds its own here. */
export const JOBS: Job[] = [
  authCleanupJob,
  subscriptionRenewalJob,
  webhookRetryJob,
  runExpiryJob,
  runTallyJob,
  mailSendJob,
  mailCleanupJob,
  resultRetentionJob,
];
