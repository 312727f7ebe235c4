/**
 * What other modules use of the notifications module: telling a person of a run's ending (settle's
 * transaction), of a schedule's skip, pause or uncovered due run (the schedules), and where a fall below the
 * low-balance threshold is announced (the customer's webhooks).
 */
export {
  notifySchedulePaused,
  notifyScheduleSkipped,
  recordRunEnded,
  warnScheduleUncovered,
} from './record.js';
