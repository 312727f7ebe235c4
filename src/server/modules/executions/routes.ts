import type { App, AppDeps } from '../../types.js';

/** Runs: start, complete, list, detail, events. Mounted at /api/executions. */
export async function executionRoutes(_app: App, _deps: AppDeps): Promise<void> {}
