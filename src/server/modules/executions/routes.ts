import { ZIdParams } from '#shared/contract/common.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import {
  ZCompleteRunRequest,
  ZExecution,
  ZExecutionList,
  ZStartRunRequest,
  ZStartRunResponse,
} from '#shared/contract/executions.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { completeRun } from './complete.js';
import { streamRunEvents } from './events.js';
import { getOwnRun, listOwnRuns } from './queries.js';
import { startRun } from './start.js';

/** Runs: start, complete, list, detail, events. Mounted at /api/executions. */
export async function executionRoutes(app: App, deps: AppDeps): Promise<void> {
  // Waiting calls and event streams end when the server closes, so a shutdown is not held up by them.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.post(
    '/start',
    {
      schema: {
        tags: ['executions'],
        summary: 'Start a run of a workflow and pay for it',
        description:
          'Charges creditsPerExecution at once. 402 INSUFFICIENT_CREDITS carries `details: { required, balance }`.',
        body: ZStartRunRequest,
        response: {
          201: ZStartRunResponse,
          400: ZErrorBody,
          401: ZErrorBody,
          402: ZErrorBody,
          403: ZErrorBody,
          404: ZErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await startRun(deps, user, request.body));
    },
  );

  app.post(
    '/:id/complete',
    {
      schema: {
        tags: ['executions'],
        summary: "Send the run's answers to the workflow and wait up to 30 s for its result",
        params: ZIdParams,
        body: ZCompleteRunRequest,
        response: { 200: ZExecution, 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return completeRun(deps, user.id, request.params.id, request.body, closing.signal);
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['executions'],
        summary: "The signed-in user's runs, newest first",
        response: { 200: ZExecutionList, 401: ZErrorBody },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return listOwnRuns(deps.db, user.id);
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['executions'],
        summary: 'One of your runs',
        params: ZIdParams,
        response: { 200: ZExecution, 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return getOwnRun(deps.db, user.id, request.params.id);
    },
  );

  app.get(
    '/:id/events',
    {
      schema: {
        tags: ['executions'],
        summary: 'Server-sent events: the run (event `execution`) on every change until it ends',
        params: ZIdParams,
        response: { 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await streamRunEvents(deps.db, user.id, request.params.id, request, reply, closing.signal);
    },
  );
}
