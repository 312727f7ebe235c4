import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { TSessionUser } from '#shared/contract/auth.js';
import { workflowExecutions } from '#server/db/schema.js';
import { AppError, notFound } from '#server/lib/errors.js';
import { isStorageKey, resultStorageFor } from '#server/providers/storage/index.js';
import type { AppDeps } from '#server/types.js';
import { cleanFilename, contentTypeOf } from './file-check.js';

type Reader = Pick<TSessionUser, 'id' | 'isAdmin'>;

export interface ResultFile {
  bytes: Buffer;
  contentType: string;
  isImage: boolean;
  disposition(kind: 'inline' | 'attachment'): string;
}

/** A stored result file found for a reader allowed to have it, before any byte of it is read. */
interface LocatedFile {
  key: string;
  size: number;
  contentType: string;
  isImage: boolean;
  disposition(kind: 'inline' | 'attachment'): string;
}

/**
 * RFC 6266 / 5987: an ASCII fallback (quotes, backslashes, control and non-ASCII characters replaced) and
 * the exact name percent-encoded in filename*, so no name can end the header or add another. The name is
 * cleaned again on the way out, so a name stored before the sanitiser knew a character is served without it.
 */
export function contentDisposition(kind: 'inline' | 'attachment', stored: string): string {
  const filename = cleanFilename(stored) || 'download';
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

type RangeAnswer =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `Range: bytes=...` of RFC 9110 against a file of `size` bytes. A header this server does not serve
 * (another unit, several ranges, a malformed one) is ignored and the whole file goes out, as the RFC allows;
 * a well-formed range that starts past the end is unsatisfiable (416).
 */
function parseRange(header: string | undefined, size: number): RangeAnswer {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/**
 * A run's stored result file for its owner or an admin; anyone else gets the same 404 as for no file. A file
 * past its retention is 410 for them, even in the minutes before the retention job removes it.
 */
async function locateResultFile(deps: AppDeps, user: Reader, runId: string): Promise<LocatedFile> {
  const [run] = await deps.db
    .select({
      userId: workflowExecutions.userId,
      resultPath: workflowExecutions.resultPath,
      filename: workflowExecutions.outputFilename,
      fileExpiresAt: workflowExecutions.fileExpiresAt,
    })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  if (!run || (run.userId !== user.id && !user.isAdmin)) throw notFound('result');
  if (run.fileExpiresAt && (run.resultPath === null || run.fileExpiresAt <= deps.now())) {
    throw new AppError('GONE', 'resultExpired');
  }
  if (!run.resultPath || !isStorageKey(run.resultPath)) throw notFound('result');
  const size = await resultStorageFor(deps.config).size(run.resultPath);
  if (size === null) throw notFound('result');
  const extension = run.resultPath.split('.').pop() ?? '';
  const filename = run.filename ?? `result.${extension}`;
  return {
    key: run.resultPath,
    size,
    contentType: contentTypeOf(extension),
    isImage: ['png', 'jpg', 'jpeg'].includes(extension),
    disposition: (kind) => contentDisposition(kind, filename),
  };
}

/** A run's stored result file, whole, for a user already known (the MCP server embeds an image's bytes). */
export async function resultFileFor(deps: AppDeps, user: Reader, runId: string): Promise<ResultFile> {
  const file = await locateResultFile(deps, user, runId);
  const bytes = await resultStorageFor(deps.config).read(file.key);
  if (!bytes) throw notFound('result');
  return { bytes, contentType: file.contentType, isImage: file.isImage, disposition: file.disposition };
}

/**
 * Answers a download of a run's stored result file: streamed from the store (never held whole in memory),
 * one byte range when asked (206, or 416 past the end), always as an attachment unless `inline` is asked
 * for an image, never sniffed and sandboxed should a browser render it anyway.
 */
export async function sendResultFile(
  deps: AppDeps,
  reply: FastifyReply,
  user: Reader,
  runId: string,
  options: { inline: boolean; range: string | undefined },
): Promise<FastifyReply> {
  const file = await locateResultFile(deps, user, runId);
  const range = parseRange(options.range, file.size);
  reply.header('accept-ranges', 'bytes');
  if (range.kind === 'unsatisfiable') {
    reply.header('content-range', `bytes */${file.size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE', { key: 'default', params: { size: file.size } });
  }
  const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
  const body = await resultStorageFor(deps.config).stream(file.key, part);
  if (!body) throw notFound('result');
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', file.disposition(options.inline && file.isImage ? 'inline' : 'attachment'))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store');
  if (part) {
    reply
      .code(206)
      .header('content-range', `bytes ${part.start}-${part.end}/${file.size}`)
      .header('content-length', part.end - part.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return reply.send(body);
}
