/** What other modules use of the credits module: the ledger and the plan grants. */
export { applyLedgerEntry } from './ledger.js';
export { grantPlanCredits, type PlanGrant } from './grants.js';
export { nextBillingDate, openSubscription, subscriptionPlan } from './subscriptions.js';
