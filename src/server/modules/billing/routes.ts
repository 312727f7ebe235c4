import type { App, AppDeps } from '../../types.js';

/** Payment provider callbacks (POST /api/payments/stripe/webhook) and subscriptions. Mounted at /api/payments. */
export async function billingRoutes(_app: App, _deps: AppDeps): Promise<void> {}
