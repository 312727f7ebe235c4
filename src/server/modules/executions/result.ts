import { and, eq } from 'drizzle-orm';
import type { TSyncWorkflowResult, TWorkflowResult, TWorkflowResultAck } from '#shared/contract/results.js';
import { workflowExecutions } from '#server/db/schema.js';
import { AppError, badRequest, conflict } from '#server/lib/errors.js';
import { tokenMatchesHash } from '#server/lib/tokens.js';
import { resultStorageFor } from '#server/providers/storage/index.js';
import type { AppDeps } from '#server/types.js';
import { checkOutputData, checkResultFile, displayFilename } from '../results/service.js';
import { getSetting } from '../settings/service.js';
import { isOpen, openStatusFilter } from './queries.js';
import { type ResultFields, settleRun } from './settle.js';

/*
 * A workflow's result settles its run: progress, a failure or the result itself, from the result callback or
 * from the webhook's own answer. The file checks and the stored file are the results module's.
 */

/** A file that came as a multipart part instead of base64. */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const VIDEO_EXTENSIONS = new Set(['mp4', 'webm', 'mov', 'm4v', 'ogv', 'ogg']);
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg']);

const invalidToken = () => new AppError('UNAUTHENTICATED', 'invalidRunToken');

/** The run's stored token hashes (one per delivery attempt) against the presented token, in constant time. */
function tokenAccepted(token: string, storedHashes: string | null): boolean {
  if (!storedHashes) return false;
  let accepted = false;
  // Every hash is compared, so the time taken does not tell which attempt's token was close.
  for (const hash of storedHashes.split(' ')) accepted = tokenMatchesHash(token, hash) || accepted;
  return accepted;
}

/** POST /api/workflow-result: the workflow service reports progress or the end of a run. */
export async function acceptResultCallback(
  deps: AppDeps,
  payload: TWorkflowResult,
  file: UploadedFile | undefined,
): Promise<TWorkflowResultAck> {
  const [run] = await deps.db
    .select({ status: workflowExecutions.status, tokenHashes: workflowExecutions.resultTokenHash })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, payload.execution_id));
  if (!run || !tokenAccepted(payload.secret_token, run.tokenHashes)) throw invalidToken();
  if (!isOpen(run.status)) throw conflict('runEnded');
  return applyResult(deps, payload.execution_id, payload, file);
}

/** A result, from a callback or from the webhook's own answer (already authenticated either way). */
export async function applyResult(
  deps: AppDeps,
  runId: string,
  result: TWorkflowResult | TSyncWorkflowResult,
  file: UploadedFile | undefined,
): Promise<TWorkflowResultAck> {
  // Before anything is written: a refused result leaves the run as it was, still open to a correct one.
  checkOutputData(result.output_data);
  if (result.status === 'running') return recordProgress(deps, runId, result.output_data);
  if (result.status === 'failed') {
    const ended = await settleRun(deps, runId, {
      status: 'failed',
      errorCode: 'workflow_failed',
      errorMessage: failureMessage(result),
      fields: { outputData: result.output_data ?? null },
    });
    if (!ended) throw conflict('runEnded');
    return { ok: true, status: 'failed' };
  }
  const fields = await resultFields(deps, result, file);
  const ended = await settleRun(deps, runId, { status: 'completed', fields });
  if (!ended) {
    if (fields.resultPath) await resultStorageFor(deps.config).remove(fields.resultPath);
    throw conflict('runEnded');
  }
  return { ok: true, status: 'completed' };
}

function messageOf(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of ['message', 'error']) {
      if (typeof record[key] === 'string' && record[key]) return record[key];
    }
  }
  return null;
}

/** The workflow's own words about its failure, if it gave any (the code already says it failed). */
function failureMessage(result: TWorkflowResult | TSyncWorkflowResult): string | null {
  return (result.error_message || messageOf(result.output_data))?.slice(0, 5000) ?? null;
}

async function recordProgress(deps: AppDeps, runId: string, data: unknown): Promise<TWorkflowResultAck> {
  const message = messageOf(data);
  if (!message) throw badRequest('progressNeedsMessage');
  const [run] = await deps.db
    .update(workflowExecutions)
    .set({ progressMessage: message.slice(0, 1000) })
    .where(and(eq(workflowExecutions.id, runId), openStatusFilter))
    .returning({ status: workflowExecutions.status });
  if (!run) throw conflict('runEnded');
  return { ok: true, status: run.status };
}

/** Base64 (standard or URL-safe, optionally a data: URL) to bytes, refusing what is too big before decoding. */
function decodeBase64File(data: string, maxBytes: number): Buffer {
  const body = data.replace(/^data:[^,]{0,200};base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body) || body.length % 4 === 1) {
    throw badRequest('fileDataNotBase64');
  }
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const decodedLength = Math.floor((body.length * 3) / 4) - padding;
  if (decodedLength > maxBytes) throw tooLarge(maxBytes);
  return Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
}

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', { key: 'fileTooLarge', params: { mb: maxBytes / (1024 * 1024) } });

export async function maxResultFileBytes(deps: AppDeps): Promise<number> {
  return (await getSetting(deps.db, 'max_result_file_mb')) * 1024 * 1024;
}

async function resultFields(
  deps: AppDeps,
  result: TWorkflowResult | TSyncWorkflowResult,
  file: UploadedFile | undefined,
): Promise<ResultFields> {
  const outputData = result.output_data ?? null;
  if (file || result.file_data) {
    const maxBytes = await maxResultFileBytes(deps);
    const filename = file?.filename || result.filename || '';
    const bytes = file ? file.bytes : decodeBase64File(result.file_data ?? '', maxBytes);
    if (bytes.length > maxBytes) throw tooLarge(maxBytes);
    const checked = await checkResultFile(result.filename || filename, bytes);
    const retentionDays = await getSetting(deps.db, 'result_retention_days');
    const key = await resultStorageFor(deps.config).save(bytes, checked.extension);
    return {
      fileExpiresAt: new Date(deps.now().getTime() + retentionDays * DAY_MS),
      outputType: checked.outputType,
      outputFilename: displayFilename(result.filename || filename, checked.extension),
      outputSize: bytes.length,
      resultPath: key,
      outputUrl: null,
      outputData,
    };
  }
  if (result.file_url) {
    let url: URL;
    try {
      url = new URL(result.file_url);
    } catch {
      throw badRequest('fileUrlInvalid');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw badRequest('fileUrlNotHttp');
    }
    const lastSegment = decodeURIComponentSafe(url.pathname.split('/').pop() ?? '');
    const extension = /\.([a-z0-9]{1,5})$/i.exec(lastSegment)?.[1]?.toLowerCase() ?? '';
    return {
      outputType: urlOutputType(result.output_type, extension),
      outputUrl: url.toString(),
      outputFilename: displayFilename(result.filename || lastSegment, extension || 'bin'),
      outputSize: null,
      resultPath: null,
      outputData,
    };
  }
  return { outputType: 'text', outputData, outputUrl: null, resultPath: null };
}

function urlOutputType(declared: string | null | undefined, extension: string): ResultFields['outputType'] {
  const type = declared?.toLowerCase();
  if (type === 'video' || type === 'image' || type === 'file') return type;
  if (VIDEO_EXTENSIONS.has(extension)) return 'video';
  if (IMAGE_EXTENSIONS.has(extension)) return 'image';
  return 'file';
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
