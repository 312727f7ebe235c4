import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZWorkflowResult, ZWorkflowResultAck, type TWorkflowResult } from '#shared/contract/results.js';
import { AppError, badRequest, errorAnswers } from '#server/lib/errors.js';
import type { App, AppDeps } from '#server/types.js';
import { requireUser } from '#server/plugins/session.js';
import { sendResultFile } from './download.js';
import { assertJsonTextDepth } from './output-limits.js';
import { acceptResultCallback, maxResultFileBytes, type UploadedFile } from './service.js';

/** A base64 file of 10 MiB is about 14 MB of JSON; only this route accepts bodies that large. */
const RESULT_BODY_LIMIT = 15 * 1024 * 1024;
const MAX_FIELDS = 20;

const ZResultParams = z.object({ executionId: z.uuid() });
const ZResultQuery = z.object({ inline: z.enum(['0', '1']).optional() });

function parseResult(raw: unknown): TWorkflowResult {
  const parsed = ZWorkflowResult.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
  throw badRequest(
    { key: 'invalidResult', params: { fields: fields.map((f) => f.field || f.message).join(', ') } },
    { fields },
  );
}

/** A multipart result: the fields as form fields, the file as the one file part (n8n's HTTP Request node). */
async function readMultipart(
  request: FastifyRequest,
  maxFileBytes: number,
): Promise<{ payload: TWorkflowResult; file: UploadedFile | undefined }> {
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: maxFileBytes, files: 1, fields: MAX_FIELDS, fieldSize: 1024 * 1024, parts: 25 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        // toBuffer throws a 413 when the part is larger than fileSize.
        file = { filename: part.filename, bytes: await part.toBuffer() };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.fieldname === 'output_data' ? jsonOrText(part.value) : part.value;
      }
    }
  } catch (err) {
    // Limits keep their own 4xx (413 for a file too large, 400 for a too deep output_data); a body the
    // parser cannot read is the sender's mistake, not ours.
    if (err instanceof AppError) throw err;
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw err;
    throw badRequest('multipartUnreadable');
  }
  return { payload: parseResult(fields), file };
}

function jsonOrText(value: string): unknown {
  // The field itself is output_data: no level above it.
  assertJsonTextDepth(value, 0);
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** POST /api/workflow-result and GET /result/{executionId}. Mounted at the root. */
export async function resultRoutes(app: App, deps: AppDeps): Promise<void> {
  // Registered in this scope only: no other route parses multipart bodies.
  await app.register(multipart, { throwFileSizeLimit: true });
  // JSON bodies (this scope only) have their nesting counted on the raw text before they are parsed: a
  // result is an object holding output_data, so one level more than output_data may have is the most a
  // valid body has, and a 100,000-deep body is a 400 before any parser or serializer walks it. Parsing
  // itself stays Fastify's own (prototype-poisoning checks included).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: RESULT_BODY_LIMIT },
    (request, body, done) => {
      const text = String(body);
      try {
        assertJsonTextDepth(text, 1);
      } catch (err) {
        done(err as Error, undefined);
        return;
      }
      parseJson(request, text, done);
    },
  );

  app.post(
    '/api/workflow-result',
    {
      bodyLimit: RESULT_BODY_LIMIT,
      schema: {
        tags: ['webhooks'],
        summary: 'A workflow service reports progress or the result of a run',
        description:
          'JSON (`file_data` in base64) or multipart/form-data (the same fields, the file as a part). ' +
          'Authenticated by the per-run `secret_token`. See docs/webhook-contract.md.',
        response: { 200: ZWorkflowResultAck, ...errorAnswers(400, 401, 409, 413, 415) },
      },
    },
    async (request) => {
      const { payload, file } = request.isMultipart()
        ? await readMultipart(request, await maxResultFileBytes(deps))
        : { payload: parseResult(request.body), file: undefined };
      return acceptResultCallback(deps, payload, file);
    },
  );

  app.get(
    '/result/:executionId',
    {
      schema: {
        tags: ['executions'],
        summary: "Download a run's result file (its owner or an admin)",
        description:
          'Streams the file as an attachment (an image inline with `inline=1`). One byte range (`Range: ' +
          'bytes=a-b`) answers 206; a range past the end 416. 410 once the file has expired.',
        params: ZResultParams,
        querystring: ZResultQuery,
        response: { ...errorAnswers(400, 401, 404, 410, 416) },
      },
    },
    async (request, typedReply) => {
      // A file answer has no JSON schema; the plain reply sends its bytes.
      const reply: FastifyReply = typedReply;
      const user = await requireUser(request);
      return sendResultFile(deps, reply, user, request.params.executionId, {
        inline: request.query.inline === '1',
        range: request.headers.range,
      });
    },
  );
}
