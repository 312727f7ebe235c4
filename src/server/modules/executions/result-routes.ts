import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ZWorkflowResult, ZWorkflowResultAck, type TWorkflowResult } from '#shared/contract/results.js';
import { AppError, badRequest, errorAnswers } from '#server/lib/errors.js';
import type { App, AppDeps } from '#server/types.js';
import { recordDelivery } from '../operations/service.js';
import { assertJsonTextDepth } from '../results/service.js';
import { acceptResultCallback, maxResultFileBytes, type UploadedFile } from './result.js';

/** A base64 file of 10 MiB is about 14 MB of JSON; only this route accepts bodies that large. */
const RESULT_BODY_LIMIT = 15 * 1024 * 1024;
const MAX_FIELDS = 20;

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The run a JSON callback names, read before the body is checked, so a refused one is logged on its run. */
function runIdIn(body: unknown): string | null {
  const id = body && typeof body === 'object' ? (body as Record<string, unknown>).execution_id : undefined;
  return typeof id === 'string' && UUID.test(id) ? id : null;
}

/** A callback in its run's delivery log (operations); the body's excerpt is redacted there. */
async function logCallback(
  deps: AppDeps,
  runId: string,
  at: Date,
  started: number,
  httpStatus: number,
  outcome: 'accepted' | 'refused',
  error: string | null,
  body: unknown,
): Promise<void> {
  const text =
    body === undefined || body === null ? null : typeof body === 'string' ? body : JSON.stringify(body);
  await recordDelivery(deps.db, {
    executionId: runId,
    kind: 'callback',
    at,
    httpStatus,
    outcome,
    error,
    latencyMs: performance.now() - started,
    responseBytes: text === null ? null : Buffer.byteLength(text),
    body: text,
  });
}

/** POST /api/workflow-result: a workflow service's result callback. Mounted at the root. */
export async function resultCallbackRoutes(app: App, deps: AppDeps): Promise<void> {
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
      const at = deps.now();
      const started = performance.now();
      let runId = runIdIn(request.body);
      try {
        const { payload, file } = request.isMultipart()
          ? await readMultipart(request, await maxResultFileBytes(deps))
          : { payload: parseResult(request.body), file: undefined };
        runId = payload.execution_id;
        const ack = await acceptResultCallback(deps, payload, file);
        await logCallback(deps, runId, at, started, 200, 'accepted', null, request.body);
        return ack;
      } catch (err) {
        // A refused callback is logged on the run it names (wrong token, run already ended, bad file, too
        // large), then answered as before.
        if (runId) {
          const status = err instanceof AppError ? err.status : 500;
          const why = err instanceof AppError ? `${err.code}: ${err.message}` : 'internal error';
          await logCallback(deps, runId, at, started, status, 'refused', why, request.body);
        }
        throw err;
      }
    },
  );
}
