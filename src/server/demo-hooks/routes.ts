import type { App, AppDeps } from '../types.js';

/** The built-in demo workflow services, speaking the public webhook contract. Mounted at /demo-hooks. */
export async function demoHookRoutes(_app: App, _deps: AppDeps): Promise<void> {}
