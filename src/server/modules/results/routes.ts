import type { App, AppDeps } from '../../types.js';

/** POST /api/workflow-result and GET /result/{executionId}. Mounted at the root. */
export async function resultRoutes(_app: App, _deps: AppDeps): Promise<void> {}
