import { insightTallyJob } from '../modules/admin/insight-tallies.js';
import { authCleanupJob } from '../modules/auth/cleanup-job.js';
import { subscriptionRenewalJob } from '../modules/credits/renewal-job.js';
import { runExpiryJob, runTallyJob, webhookRetryJob } from '../modules/executions/jobs.js';
import { startScheduledRun } from '../modules/public-api/saved-inputs.js';
import { mailCleanupJob, mailSendJob } from '../modules/mail/sender.js';
import { notificationMailJob } from '../modules/notifications/mail-job.js';
import { healthTallyJob } from '../modules/operations/jobs.js';
import { resultRetentionJob } from '../modules/results/jobs.js';
import { accountWebhookJob, webhookDeliveryCleanupJob } from '../modules/webhooks/jobs.js';
import { scheduleJob, uncoveredScheduleJob } from '../modules/schedules/job.js';
import type { Job } from './scheduler.js';

/** Every background job the server runs; each module adds its own here. */
export const JOBS: Job[] = [
  authCleanupJob,
  subscriptionRenewalJob,
  webhookRetryJob,
  runExpiryJob,
  runTallyJob,
  healthTallyJob,
  insightTallyJob,
  notificationMailJob,
  mailSendJob,
  mailCleanupJob,
  resultRetentionJob,
  accountWebhookJob,
  webhookDeliveryCleanupJob,
  // Due schedules start their saved answers as "run now" does (the schedules module never imports the start).
  scheduleJob(startScheduledRun),
  uncoveredScheduleJob,
];
