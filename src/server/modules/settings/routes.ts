import { ZPublicConfig } from '#shared/contract/config.js';
import type { App, AppDeps } from '#server/types.js';

/** The public subset of the configuration: facts the browser needs, never a secret or a variable's name. */
export async function publicConfigRoutes(app: App, deps: AppDeps): Promise<void> {
  const answer = { translationAvailable: deps.config.llm !== undefined };
  app.get(
    '/api/config',
    {
      schema: {
        tags: ['config'],
        summary: 'What the browser may know of the configuration (whether translation is available)',
        response: { 200: ZPublicConfig },
      },
    },
    async () => answer,
  );
}
