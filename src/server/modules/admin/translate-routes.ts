import { ZErrorBody } from '#shared/contract/errors.js';
import { ZTranslateRequest, ZTranslateResponse } from '#shared/contract/translate.js';
import { perMinute, registerLlmRateLimit } from '#server/plugins/llm-rate-limit.js';
import type { App, AppDeps } from '#server/types.js';
import { translateText } from './translate.js';

export const TRANSLATE_REQUESTS_PER_MINUTE = 30;

/** POST /api/admin/translate (the LLM fills one language from the other). Mounted inside the admin scope. */
export async function translateRoutes(app: App, deps: AppDeps): Promise<void> {
  // Its own child scope, so the rate-limit plugin does not spill into the rest of the admin routes.
  await app.register(async (scope) => {
    const inner = scope as App;
    await registerLlmRateLimit(inner);
    inner.post(
      '/translate',
      {
        config: perMinute(TRANSLATE_REQUESTS_PER_MINUTE),
        schema: {
          tags: ['admin'],
          summary: 'Translate a text of the workflow form into the other language (needs an LLM)',
          body: ZTranslateRequest,
          response: {
            200: ZTranslateResponse,
            400: ZErrorBody,
            401: ZErrorBody,
            403: ZErrorBody,
            429: ZErrorBody,
            502: ZErrorBody,
            503: ZErrorBody,
          },
        },
      },
      async (request) => ({ translation: await translateText(deps, request.body) }),
    );
  });
}
