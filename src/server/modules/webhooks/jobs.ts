import type { Job } from '#server/jobs/scheduler.js';
import { deliverDueWebhooks, pruneOldDeliveries } from './delivery.js';

/** The account webhooks' due deliveries: first attempts, retries, redeliveries, a crashed instance's leases. */
export const accountWebhookJob: Job = {
  name: 'account-webhooks',
  intervalMs: 2_000,
  run: deliverDueWebhooks,
};

/** Finished deliveries past their month in the log. */
export const webhookDeliveryCleanupJob: Job = {
  name: 'account-webhooks-cleanup',
  intervalMs: 60 * 60_000,
  run: pruneOldDeliveries,
};
