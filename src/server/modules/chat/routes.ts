import type { App, AppDeps } from '../../types.js';

/** POST /api/chat. Mounted at /api. */
export async function chatRoutes(_app: App, _deps: AppDeps): Promise<void> {}
