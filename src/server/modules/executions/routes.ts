import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZIdParams } from '#shared/contract/common.js';
import { z } from 'zod';
import { ZErrorBody } from '#shared/contract/errors.js';
import {
  ZCompleteRunRequest,
  ZExecution,
  ZExecutionDetail,
  ZExecutionList,
  ZRunFileLinkQuery,
  ZRunFileParams,
  ZUploadedInputFile,
  ZStartRunRequest,
  ZStartRunResponse,
} from '#shared/contract/executions.js';
import { Closing } from '#server/lib/closing.js';
import { readMultipartFile } from '#server/lib/multipart-file.js';
import { badRequest, errorAnswers } from '#server/lib/errors.js';
import { requireSession, requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { sessionIsLive } from '../auth/service.js';
import type { StreamAccess } from './access-ended.js';
import { completeRun } from './complete.js';
import { RUN_EVENTS_SCHEMA, streamRunEvents } from './events.js';
import { contentDisposition } from '../results/service.js';
import {
  assertPendingRun,
  deleteInputFile,
  maxInputFileBytes,
  openSignedInputFile,
  uploadInputFile,
  type UploadedInput,
} from './input-files.js';
import { getOwnRunDetail, listOwnRuns } from './queries.js';
import { openRun } from './start.js';

/** Runs: start, complete, list, detail, events. Mounted at /api/executions. */
export async function executionRoutes(app: App, deps: AppDeps): Promise<void> {
  // Waiting calls and event streams end when the server closes, so a shutdown is not held up by them.
  const closing = new Closing(app);

  app.post(
    '/start',
    {
      schema: {
        tags: ['executions'],
        summary: 'Start (or reopen) a run of a workflow; nothing is charged yet',
        description:
          'Checks the balance (402 INSUFFICIENT_CREDITS carries `details: { required, balance }`) and charges ' +
          'nothing: a survey is charged when its answers are sent (`/complete`), a chat at its first message. ' +
          "While the caller has an unsubmitted run of this workflow, that run's id is answered again (no new run); " +
          'at most `open_runs_per_user` such runs are kept, the oldest closed first with nothing charged.',
        body: ZStartRunRequest,
        response: { 201: ZStartRunResponse, ...errorAnswers(400, 401, 402, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { executionId } = await openRun(deps, user, request.body);
      return reply.status(201).send({ executionId });
    },
  );

  app.post(
    '/:id/complete',
    {
      schema: {
        tags: ['executions'],
        summary:
          "Send the run's answers to the workflow, pay for the run, and wait up to 30 s for its result",
        description:
          'The run is charged here, in the transaction that records the answers (a chat already paid at its ' +
          'first message). 402 INSUFFICIENT_CREDITS (`details: { required, balance }`) changes nothing.',
        params: ZIdParams,
        body: ZCompleteRunRequest,
        response: { 200: ZExecution, ...errorAnswers(400, 401, 402, 404, 409) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return closing.during((signal) => completeRun(deps, user.id, request.params.id, request.body, signal));
    },
  );

  await app.register(async (files) => inputFileRoutes(files, deps));

  app.get(
    '/',
    {
      schema: {
        tags: ['executions'],
        summary: "The signed-in user's runs, newest first",
        response: { 200: ZExecutionList, ...errorAnswers(401) },
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
        summary: 'One of your runs, with what was sent and when it reached the workflow',
        params: ZIdParams,
        response: { 200: ZExecutionDetail, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return getOwnRunDetail(deps.db, user.id, request.params.id);
    },
  );

  app.get(
    '/:id/events',
    {
      schema: {
        tags: ['executions'],
        ...RUN_EVENTS_SCHEMA,
        response: {
          ...RUN_EVENTS_SCHEMA.response,
          ...errorAnswers(400, 401, 404),
          429: ZErrorBody.describe('Too many open event streams (`max_event_streams_per_user`)'),
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      const access: StreamAccess = {
        credential: `session:${sessionId}`,
        isLive: () => sessionIsLive(deps.db, sessionId),
      };
      await closing.during((signal) =>
        streamRunEvents(deps, user.id, request.params.id, access, request, reply, signal),
      );
    },
  );
}

/**
 * The multipart body of a run's upload: `questionId` (a form field, sent before the file) and one `file`
 * part, read up to the largest size any question may take; the question's own limit is checked afterwards.
 */
async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ questionId: string; file: UploadedInput }> {
  const { fields, file } = await readMultipartFile(request, maxBytes);
  const questionId = fields.questionId;
  if (!questionId || questionId.length > 64 || !file) throw badRequest('uploadNeedsFile');
  return { questionId, file };
}

/** Files as survey answers: upload, remove (the run's owner, while it waits), and the workflow's signed link. */
async function inputFileRoutes(app: App, deps: AppDeps): Promise<void> {
  // This scope only: no other run route parses multipart bodies.
  await app.register(multipart, { throwFileSizeLimit: true });

  app.post(
    '/:id/files',
    {
      schema: {
        tags: ['executions'],
        summary: 'Upload a file as the answer to a file question of your pending run',
        description:
          'multipart/form-data with the fields `questionId` (first) and `file`. Checked like result files ' +
          "(extension among the question's `accept`, bytes, size up to its `maxSizeMb`). One file per question: " +
          'to replace it, DELETE it first. The complete call then answers the question with `{ fileId }`.',
        params: ZIdParams,
        response: { 201: ZUploadedInputFile, ...errorAnswers(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      // Someone else's run, or one no longer waiting, is refused before its body is read.
      await assertPendingRun(deps, user.id, request.params.id);
      if (!request.isMultipart()) throw badRequest('uploadNeedsFile');
      const { questionId, file } = await readUpload(request, await maxInputFileBytes(deps));
      return reply
        .status(201)
        .send(await uploadInputFile(deps, user.id, request.params.id, questionId, file));
    },
  );

  app.delete(
    '/:id/files/:fileId',
    {
      schema: {
        tags: ['executions'],
        summary: 'Remove a file uploaded to your pending run (to upload another)',
        params: ZRunFileParams,
        response: {
          204: z.null(),
          ...errorAnswers(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await deleteInputFile(deps, user.id, request.params.id, request.params.fileId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:id/files/:fileId',
    {
      schema: {
        tags: ['webhooks'],
        summary: "A file answer's bytes, through the signed link the workflow received (no session)",
        description:
          'The `url` of a file answer in the webhook call. Valid while the run works, at most 24 h; a wrong or ' +
          'late link is 403. See docs/webhook-contract.md.',
        params: ZRunFileParams,
        querystring: ZRunFileLinkQuery,
        response: { ...errorAnswers(400, 403) },
      },
    },
    async (request, typedReply) => {
      // A file answer has no JSON schema; the plain reply sends its bytes.
      const reply: FastifyReply = typedReply;
      const { id, fileId } = request.params;
      const file = await openSignedInputFile(
        deps,
        id,
        fileId,
        request.query.expires,
        request.query.signature,
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition('attachment', file.filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}
