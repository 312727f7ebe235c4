import { ZApiKeyCreate, ZApiKeyCreated, ZApiKeyList } from '#shared/contract/api-keys.js';
import { ZIdParams, ZOk } from '#shared/contract/common.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { createApiKey, deleteApiKey, listApiKeys } from './service.js';
import { errorAnswers } from '#server/lib/errors.js';

/**
 * The person's API keys, managed with the session cookie (and its CSRF check like every cookie route).
 * Mounted at /api/account/api-keys.
 */
export async function apiKeyRoutes(app: App, deps: AppDeps): Promise<void> {
  app.post(
    '',
    {
      schema: {
        tags: ['account'],
        summary: 'Create an API key; the key itself is in this answer only',
        body: ZApiKeyCreate,
        response: { 201: ZApiKeyCreated, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await createApiKey(deps, user, request.body));
    },
  );

  app.get(
    '',
    {
      schema: {
        tags: ['account'],
        summary: 'Your API keys (never the keys themselves), oldest first',
        response: { 200: ZApiKeyList, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { keys: await listApiKeys(deps, user.id) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke an API key: it stops working at once',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await deleteApiKey(deps.db, user.id, request.params.id);
      return { ok: true as const };
    },
  );
}
