import type { Job } from '#server/jobs/scheduler.js';
import { foldHealthNotes } from './health.js';

/** Ended runs' notes folded into the workflows' daily health tallies (the admin screens also fold on read). */
export const healthTallyJob: Job = {
  name: 'health-tally',
  intervalMs: 5_000,
  run: (deps) => foldHealthNotes(deps.db),
};
