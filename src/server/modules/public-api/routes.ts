import { ZIdParams } from '#shared/contract/common.js';
import { ZApiLangQuery, ZApiMe, ZApiWorkflow, ZApiWorkflowList } from '#shared/contract/public-api.js';
import { requireApiKey } from '#server/plugins/api-key.js';
import type { App, AppDeps } from '#server/types.js';
import { apiWorkflowRow, apiWorkflowRows, toApiWorkflow } from './service.js';
import { errorAnswers } from '#server/lib/errors.js';

/**
 * The public API, mounted at /api/v1. Every route is authorised by a personal API key and never reads the
 * session cookie.
 */
export async function publicApiRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/me',
    {
      schema: {
        tags: ['public API'],
        operationId: 'getMe',
        security: [{ apiKey: [] }],
        summary: "The key owner's balance and what this key spent this month",
        response: { 200: ZApiMe, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      const principal = await requireApiKey(request, reply, deps);
      return {
        userId: principal.user.id,
        balance: principal.user.credits,
        spentThisMonth: principal.spentThisMonth,
        monthlyCreditLimit: principal.monthlyCreditLimit,
      };
    },
  );
  app.get(
    '/workflows',
    {
      schema: {
        tags: ['public API'],
        operationId: 'listWorkflows',
        security: [{ apiKey: [] }],
        summary: "The public active workflows, in the language asked (the key owner's by default)",
        querystring: ZApiLangQuery,
        response: { 200: ZApiWorkflowList, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      const lng = request.query.lang ?? user.language;
      return { workflows: (await apiWorkflowRows(deps.db)).map((row) => toApiWorkflow(row, lng)) };
    },
  );

  app.get(
    '/workflows/:id',
    {
      schema: {
        tags: ['public API'],
        operationId: 'getWorkflow',
        security: [{ apiKey: [] }],
        summary: "One public active workflow, with a survey's input as a JSON Schema",
        params: ZIdParams,
        querystring: ZApiLangQuery,
        response: { 200: ZApiWorkflow, ...errorAnswers(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      const lng = request.query.lang ?? user.language;
      return toApiWorkflow(await apiWorkflowRow(deps.db, request.params.id), lng);
    },
  );
}
