import type { App, AppDeps } from '../../types.js';

/** Catalogue: GET /api/workflows/public[/{id}], DELETE /api/workflows/{id}. Mounted at /api/workflows. */
export async function workflowRoutes(_app: App, _deps: AppDeps): Promise<void> {}
