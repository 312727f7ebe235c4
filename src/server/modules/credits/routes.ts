import type { App, AppDeps } from '../../types.js';

/** GET /api/credits/transactions, POST /api/credits/purchase, plans. Mounted at /api/credits. */
export async function creditRoutes(_app: App, _deps: AppDeps): Promise<void> {}
