import type { App, AppDeps } from '../../types.js';

/** Every /api/admin route; the admin guard is applied to the whole prefix in app.ts. Mounted at /api/admin. */
export async function adminRoutes(_app: App, _deps: AppDeps): Promise<void> {}
