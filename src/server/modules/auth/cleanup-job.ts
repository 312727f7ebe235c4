import type { Job } from '#server/jobs/scheduler.js';
import { deleteExpiredAuthState } from './service.js';

/** Expired sessions stop working at once (they are checked on use); this only keeps the tables small. */
export const authCleanupJob: Job = {
  name: 'auth-cleanup',
  intervalMs: 60 * 60 * 1000,
  run: (deps) => deleteExpiredAuthState(deps.db, deps.now()),
};
