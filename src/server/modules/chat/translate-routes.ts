import type { App, AppDeps } from '../../types.js';

/** POST /api/admin/translate (the LLM fills one language from the other). Mounted inside the admin scope. */
export async function translateRoutes(_app: App, _deps: AppDeps): Promise<void> {}
