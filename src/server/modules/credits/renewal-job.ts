import type { Job } from '#server/jobs/scheduler.js';
import { renewDueSubscriptions } from './subscriptions.js';

/** Grants demo monthly plans their month when the renewal date comes (Stripe renews through its webhook). */
export const subscriptionRenewalJob: Job = {
  name: 'subscription-renewal',
  intervalMs: 60_000,
  run: (deps) => renewDueSubscriptions(deps),
};
