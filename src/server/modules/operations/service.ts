/**
 * What other modules use of operations (decisions 144-146): the delivery log that dispatch and the result
 * callback write, the counting settleRunIn calls when a run ends, the health tallies, incidents and pausing.
 */
export { deliveryLogOf, recordDelivery } from './delivery-log.js';
export { countRunEnded } from './counting.js';
export { foldHealthNotes, monthlyHealthOf, monthlySuccessRates, publicHealth } from './health.js';
export { openIncidents, setPaused, workflowHealth } from './pause.js';
