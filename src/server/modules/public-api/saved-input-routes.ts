import { ZIdParams, ZOk } from '#shared/contract/common.js';
import {
  ZSavedInput,
  ZSavedInputCreate,
  ZSavedInputFileParams,
  ZSavedInputFromRun,
  ZSavedInputList,
  ZSavedInputRunStarted,
  ZSavedInputUpdate,
} from '#shared/contract/saved-inputs.js';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest, errorAnswers } from '#server/lib/errors.js';
import { readMultipartFile } from '#server/lib/multipart-file.js';
import { requireApiKey } from '#server/plugins/api-key.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { maxInputFileBytes, type UploadedInput } from '../executions/service.js';
import { WorkAfterAnswer } from './after-answer.js';
import {
  createSavedInput,
  createSavedInputFromRun,
  deleteSavedInput,
  getSavedInput,
  listSavedInputs,
  assertOwnSavedInput,
  putSavedInputFile,
  runSavedInput,
  updateSavedInput,
} from './saved-inputs.js';

/** "Run now" deliveries under way after their answers, per process (as the public API's starts). */
const DELIVERIES_AFTER_ANSWER = 64;

/** The person's saved answers with the session cookie (and its CSRF check), mounted at /api/saved-inputs. */
export async function savedInputRoutes(app: App, deps: AppDeps): Promise<void> {
  const afterAnswer = new WorkAfterAnswer(DELIVERIES_AFTER_ANSWER, (err) =>
    app.log.error(
      { err },
      'a saved-answers run delivery after the answer failed; the retry job takes it over',
    ),
  );
  app.addHook('onClose', async () => afterAnswer.settled());
  const tags = ['saved answers'];

  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'Your saved answers, newest first, with how many the account may keep',
        response: { 200: ZSavedInputList, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return listSavedInputs(deps, user.id, user.language);
    },
  );

  app.post(
    '',
    {
      schema: {
        tags,
        summary: "Save a survey's answers under a name, without running them",
        description:
          'Answers keyed by question id, checked as a run checks them (400 names every field). A chat ' +
          'workflow cannot be saved (400); 409 when the name is taken for this workflow or the account ' +
          'keeps `saved_inputs_per_account` already.',
        body: ZSavedInputCreate,
        response: { 201: ZSavedInput, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await createSavedInput(deps, user, request.body));
    },
  );

  app.post(
    '/from-run',
    {
      schema: {
        tags,
        summary: 'Save the answers one of your survey runs sent, under a name',
        body: ZSavedInputFromRun,
        response: { 201: ZSavedInput, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await createSavedInputFromRun(deps, user, request.body));
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One of your saved answers (404 for anyone else’s)',
        params: ZIdParams,
        response: { 200: ZSavedInput, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return getSavedInput(deps.db, user.id, request.params.id, user.language);
    },
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Rename saved answers, or save them again with new answers (which clears a review)',
        params: ZIdParams,
        body: ZSavedInputUpdate,
        response: { 200: ZSavedInput, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return updateSavedInput(deps, user, request.params.id, request.body);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete saved answers',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await deleteSavedInput(deps, user.id, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/:id/run',
    {
      schema: {
        tags,
        summary: 'Run saved answers now: charged and sent to the workflow at once, without the form',
        description:
          '402 without the credits (nothing charged); 409 when the workflow changed and the answers need ' +
          'review (the details name what to fix).',
        params: ZIdParams,
        response: { 201: ZSavedInputRunStarted, ...errorAnswers(400, 401, 402, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const started = await runSavedInput(deps, user, request.params.id, {
        afterAnswer: afterAnswer.take,
      });
      return reply.status(201).send(started);
    },
  );

  // Its own scope: no other saved-answers route parses multipart bodies.
  await app.register(async (scope) => savedFileRoutes(scope, deps, 'cookie'));
}

/** What both file routes say of themselves (cookie and API key). */
const FILE_ROUTE_SCHEMA = {
  summary: "Keep a file as the answer to one of the saved answers' file questions",
  description:
    "multipart/form-data with one `file` part. Checked exactly as a run's upload (extension among the " +
    "question's `accept`, bytes, size up to its `maxSizeMb` or `max_input_file_mb`); replaces the file kept " +
    'before for that question, and the answer becomes `{ fileId }`. Saved answers whose file questions have ' +
    'no file yet need review, and are never sent, until their files are kept.',
  params: ZSavedInputFileParams,
  response: { 200: ZSavedInput, ...errorAnswers(400, 401, 404, 413, 415, 429) },
};

/** The `file` part of a saved answers' upload, up to the largest size any question may take. */
async function readFile(request: FastifyRequest, deps: AppDeps): Promise<UploadedInput> {
  if (!request.isMultipart()) throw badRequest('uploadNeedsFile');
  const { file } = await readMultipartFile(request, await maxInputFileBytes(deps));
  if (!file) throw badRequest('uploadNeedsFile');
  return file;
}

/** The same saved answers through the public API (Bearer key), mounted at /api/v1. */
export async function savedInputApiRoutes(app: App, deps: AppDeps): Promise<void> {
  const security = [{ apiKey: [] }];
  const tags = ['public API'];

  app.get(
    '/saved-inputs',
    {
      schema: {
        tags,
        operationId: 'listSavedInputs',
        security,
        summary: "The key owner's saved answers, newest first",
        response: { 200: ZSavedInputList, ...errorAnswers(401, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      return listSavedInputs(deps, user.id, user.language);
    },
  );

  app.post(
    '/saved-inputs',
    {
      schema: {
        tags,
        operationId: 'createSavedInput',
        security,
        summary: "Save a survey's answers under a name; run them with POST /api/v1/runs { savedInputId }",
        description:
          'Answers as in POST /api/v1/runs: keyed by question id, checked the same way (400 names every ' +
          'field). A chat workflow cannot be saved (400); 409 when the name is taken for this workflow or the ' +
          'account keeps `saved_inputs_per_account` already.',
        body: ZSavedInputCreate,
        response: { 201: ZSavedInput, ...errorAnswers(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      return reply.status(201).send(await createSavedInput(deps, user, request.body));
    },
  );

  app.get(
    '/saved-inputs/:id',
    {
      schema: {
        tags,
        operationId: 'getSavedInput',
        security,
        summary: 'Saved answers of the key owner (404 for anyone else’s)',
        params: ZIdParams,
        response: { 200: ZSavedInput, ...errorAnswers(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      return getSavedInput(deps.db, user.id, request.params.id, user.language);
    },
  );

  app.patch(
    '/saved-inputs/:id',
    {
      schema: {
        tags,
        operationId: 'updateSavedInput',
        security,
        summary: 'Rename saved answers, or replace their answers (checked again; clears a review)',
        params: ZIdParams,
        body: ZSavedInputUpdate,
        response: { 200: ZSavedInput, ...errorAnswers(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      return updateSavedInput(deps, user, request.params.id, request.body);
    },
  );

  app.delete(
    '/saved-inputs/:id',
    {
      schema: {
        tags,
        operationId: 'deleteSavedInput',
        security,
        summary: 'Delete saved answers',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireApiKey(request, reply, deps);
      await deleteSavedInput(deps, user.id, request.params.id);
      return { ok: true as const };
    },
  );

  await app.register(async (scope) => savedFileRoutes(scope, deps, 'key'));
}

/** PUT .../files/{questionId}: with the cookie under /api/saved-inputs, with a key under /api/v1/saved-inputs. */
async function savedFileRoutes(app: App, deps: AppDeps, by: 'cookie' | 'key'): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
  if (by === 'cookie') {
    app.put(
      '/:id/files/:questionId',
      { schema: { tags: ['saved answers'], ...FILE_ROUTE_SCHEMA } },
      async (request) => {
        const user = await requireUser(request);
        const { id, questionId } = request.params;
        // Someone else's saved answers are refused before the body is read.
        await assertOwnSavedInput(deps.db, user.id, id);
        return putSavedInputFile(deps, user, id, questionId, await readFile(request, deps));
      },
    );
    return;
  }
  app.put(
    '/saved-inputs/:id/files/:questionId',
    {
      schema: {
        tags: ['public API'],
        operationId: 'putSavedInputFile',
        security: [{ apiKey: [] }],
        ...FILE_ROUTE_SCHEMA,
      },
    },
    async (request, reply) => {
      // The key is checked before the body is read.
      const { user } = await requireApiKey(request, reply, deps);
      const { id, questionId } = request.params;
      // Someone else's saved answers are refused before the body is read.
      await assertOwnSavedInput(deps.db, user.id, id);
      return putSavedInputFile(deps, user, id, questionId, await readFile(request, deps));
    },
  );
}
