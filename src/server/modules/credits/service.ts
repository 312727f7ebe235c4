/** What other modules use of the credits module: the ledger, what a run is charged and given back, and the plan grants. */
export { applyLedgerEntry } from './ledger.js';
export { chargeRun, endedBeforeSubmit, refundsOnEnd } from './run-charges.js';
export { grantPlanCredits, planGrantCredits, PURCHASE_NOTE, type PlanGrant } from './grants.js';
export {
  nextBillingDate,
  openSubscription,
  stripeFirstMonthReference,
  subscriptionPlan,
} from './subscriptions.js';
