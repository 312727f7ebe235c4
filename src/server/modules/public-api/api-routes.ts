import type { FastifyReply } from 'fastify';
import { ZIdParams } from '#shared/contract/common.js';
import { ZIdempotencyHeaders } from '#shared/contract/credits.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import {
  ZApiChatMessageCreate,
  ZApiChatReply,
  ZApiRun,
  ZApiRunCreate,
  ZApiRunStarted,
} from '#shared/contract/public-api.js';
import { Closing } from '#server/lib/closing.js';
import { badRequest, errorAnswers } from '#server/lib/errors.js';
import { chatReplyExample } from '#server/plugins/openapi-examples.js';
import { presentedApiKey, refuseApiKey, requireApiKey } from '#server/plugins/api-key.js';
import type { App, AppDeps } from '#server/types.js';
import { sendResultFile } from '../results/service.js';
import { sendReplyAsEvents, wantsEventStream } from '../chat/service.js';
import { apiKeyIsLive } from '../apikeys/service.js';
import { isApiKey } from '../oauth/service.js';
import { RUN_EVENTS_SCHEMA, type StreamAccess, streamRunEvents } from '../executions/service.js';
import { WorkAfterAnswer } from './after-answer.js';
import { acceptApiChatMessage, getApiRun, startApiRun } from './api-runs.js';
import { startSavedInputApiRun } from './saved-inputs.js';

/**
 * Runs' first deliveries under way after their answers, per process; beyond this a start's answer waits for
 * its own delivery. Far above what a workflow service answering in milliseconds needs at any start rate the
 * server can sustain; it bounds what a slow service (up to its 10 s attempt timeout) can pile up.
 */
const DELIVERIES_AFTER_ANSWER = 256;

/** The public API's runs, mounted at /api/v1 beside the public-api module's routes; Bearer API key only. */
export async function executionApiRoutes(app: App, deps: AppDeps): Promise<void> {
  // Waiting starts and event streams end when the server closes, so a shutdown is not held up by them.
  const closing = new Closing(app);
  // Deliveries that began before their start was answered finish before the database closes.
  const afterAnswer = new WorkAfterAnswer(DELIVERIES_AFTER_ANSWER, (err) =>
    app.log.error({ err }, 'a run delivery after the answer failed; the retry job takes it over'),
  );
  app.addHook('onClose', async () => afterAnswer.settled());
  const security = [{ apiKey: [] }];

  app.post(
    '/runs',
    {
      schema: {
        tags: ['public API'],
        operationId: 'createRun',
        security,
        summary: 'Start a run: a survey with its answers, or a chat conversation',
        description:
          'Answers are keyed by question id and checked against the workflow inputSchema (400 names the fields; ' +
          'nothing is charged). Without `wait` the answer comes at once: the survey run is charged and ' +
          '`running`, and its answers go to the workflow right after (follow it with GET /api/v1/runs/{id} or ' +
          'its events). `wait` holds the answer up to that many seconds for the result. A chat ' +
          'workflow takes no answers: the run is checked as any start (402 when the balance or the key limit ' +
          'does not cover its price; 409 past `open_runs_per_user` chats with no message yet) but charged at ' +
          'its first message, as in the web app; it waits for its ' +
          'conversation (POST /api/v1/runs/{id}/messages) and comes with `welcomeMessage`. An ' +
          'Idempotency-Key makes a repeat answer the first run without charging again. `savedInputId` runs ' +
          'saved answers instead of `workflowId` and `answers` (409 when the workflow changed and they need ' +
          'review, naming what to fix). 402 ' +
          'INSUFFICIENT_CREDITS or SPENDING_LIMIT (the key monthly limit); 429 with Retry-After.',
        headers: ZIdempotencyHeaders,
        body: ZApiRunCreate,
        response: {
          201: ZApiRunStarted.describe(
            'The run: without `wait` a survey run is `running` (its answers on their way to the workflow); ' +
              'with `wait`, as it stands when it ended or the time was up; a chat run is `pending` and carries ' +
              'its welcome message',
          ),
          ...errorAnswers(400, 401, 402, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const { workflowId, savedInputId, ...rest } = request.body;
      const idempotencyKey = request.headers['idempotency-key'];
      if ((workflowId === undefined) === (savedInputId === undefined) || (savedInputId && rest.answers)) {
        throw badRequest('runNeedsOneOf', { fields: [{ field: 'savedInputId', message: 'one of two' }] });
      }
      // The key is looked up with everything else the start reads (one round trip), and refused the same way.
      const presentedKey = presentedApiKey(request);
      const outcome = !presentedKey
        ? null
        : savedInputId
          ? await closing.during(async (signal) =>
              startSavedInputApiRun(
                deps,
                await requireApiKey(request, reply, deps),
                savedInputId,
                rest,
                idempotencyKey,
                { stop: signal, afterAnswer: afterAnswer.take },
              ),
            )
          : await closing.during(async (signal) =>
              startApiRun(
                deps,
                // An OAuth token was looked up already (by the rate limit); only a key takes the one-trip path.
                isApiKey(presentedKey)
                  ? { presentedKey }
                  : { principal: await requireApiKey(request, reply, deps) },
                { ...rest, workflowId: workflowId! },
                idempotencyKey,
                { stop: signal, afterAnswer: afterAnswer.take },
              ),
            );
      if (!outcome) return refuseApiKey(reply, deps);
      const { run, replayed } = outcome;
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(run);
    },
  );

  app.post(
    '/runs/:id/messages',
    {
      schema: {
        tags: ['public API'],
        operationId: 'sendRunMessage',
        security,
        summary: "Send the next message of a chat run and get the assistant's reply",
        description:
          'For a pending chat run of the key owner. The first message charges the run its price (402 ' +
          'INSUFFICIENT_CREDITS, or SPENDING_LIMIT past the monthly limit of the key it is sent with; nothing ' +
          'is kept then); a conversation left after that keeps its charge, a submitted run that fails or ' +
          'expires is refunded. Each message counts against the run allowance ' +
          '(`chat_max_messages`); a message longer than `chat_max_message_chars` is refused with 400 and ' +
          '`details.limit`. When the reply ends the conversation (`done: true`) the run is submitted to the ' +
          'workflow with the conversation the server kept, as the web app does; `wait` then holds the answer ' +
          'for the result. With `Accept: text/event-stream` the reply comes as server-sent events while it is ' +
          "written: `delta` (`{ text }`), then `done` (this operation's 200 body) or `error` (`{ code, error }`; " +
          'the message is not kept and may be sent again). 404 for a run that is not yours, 409 for a run that ' +
          'is not a pending chat or whose allowance is used up, 502 when the assistant fails.',
        params: ZIdParams,
        body: ZApiChatMessageCreate,
        response: {
          200: ZApiChatReply.meta({
            description: "The assistant's reply, and the run (submitted once `done`)",
            example: chatReplyExample,
          }),
          400: ZErrorBody.describe('Invalid message: empty, too long (`details.limit`) or malformed'),
          401: ZErrorBody.describe('No valid API key'),
          402: ZErrorBody.describe(
            'The first message: the balance (INSUFFICIENT_CREDITS) or the key monthly limit (SPENDING_LIMIT) no longer covers the price',
          ),
          404: ZErrorBody.describe('No run of yours with this id'),
          409: ZErrorBody.describe('Not a pending chat run, or its message allowance is used up'),
          429: ZErrorBody.describe('Too many requests with this key; see Retry-After'),
          502: ZErrorBody.describe('The assistant could not answer; the message was not kept'),
        },
      },
    },
    async (request, reply) => {
      const principal = await requireApiKey(request, reply, deps);
      return closing.during(async (signal) => {
        const { pending, finish } = await acceptApiChatMessage(
          deps,
          principal,
          request.params.id,
          request.body,
          signal,
        );
        if (!wantsEventStream(request)) return finish(await pending.complete());
        await sendReplyAsEvents(request, reply, pending, finish, signal);
        return reply;
      });
    },
  );

  app.get(
    '/runs/:id',
    {
      schema: {
        tags: ['public API'],
        operationId: 'getRun',
        security,
        summary: 'One of your runs',
        params: ZIdParams,
        response: { 200: ZApiRun, ...errorAnswers(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      return getApiRun(deps, user.id, request.params.id);
    },
  );

  app.get(
    '/runs/:id/events',
    {
      schema: {
        tags: ['public API'],
        operationId: 'streamRunEvents',
        security,
        ...RUN_EVENTS_SCHEMA,
        response: { ...RUN_EVENTS_SCHEMA.response, ...errorAnswers(400, 401, 404, 410, 416, 429) },
      },
    },
    async (request, reply) => {
      const { user, keyId } = await requireApiKey(request, reply, deps);
      const access: StreamAccess = {
        credential: `key:${keyId}`,
        isLive: () => apiKeyIsLive(deps.db, keyId),
      };
      await closing.during((signal) =>
        streamRunEvents(deps, user.id, request.params.id, access, request, reply, signal),
      );
    },
  );

  app.get(
    '/runs/:id/result',
    {
      schema: {
        tags: ['public API'],
        operationId: 'getRunResult',
        security,
        summary: "The run's result file",
        params: ZIdParams,
        response: errorAnswers(400, 401, 404, 410, 416, 429),
      },
    },
    async (request, typedReply) => {
      // A file answer has no JSON schema; the plain reply sends its bytes.
      const reply: FastifyReply = typedReply;
      const { user } = await requireApiKey(request, reply, deps);
      return sendResultFile(deps, reply, { id: user.id, isAdmin: false }, request.params.id, {
        inline: false,
        range: request.headers.range,
      });
    },
  );
}
