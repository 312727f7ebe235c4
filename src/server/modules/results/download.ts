import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { workflowExecutions } from '#server/db/schema.js';
import { notFound } from '#server/lib/errors.js';
import { isStorageKey, resultStorageFor } from '#server/providers/storage/index.js';
import { requireUser } from '#server/plugins/session.js';
import type { AppDeps } from '#server/types.js';
import { contentTypeOf } from './file-check.js';

export interface ResultFile {
  bytes: Buffer;
  contentType: string;
  isImage: boolean;
  disposition(kind: 'inline' | 'attachment'): string;
}

/**
 * RFC 6266 / 5987: an ASCII fallback (quotes, backslashes, control and non-ASCII characters replaced) and
 * the exact name percent-encoded in filename*, so no name can end the header or add another.
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The stored file of a run, for its owner or an admin; anyone else gets the same 404 as for no file. */
export async function resultDownload(
  deps: AppDeps,
  request: FastifyRequest,
  runId: string,
): Promise<ResultFile> {
  const user = await requireUser(request);
  const [run] = await deps.db
    .select({
      userId: workflowExecutions.userId,
      resultPath: workflowExecutions.resultPath,
      filename: workflowExecutions.outputFilename,
    })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  if (!run || (run.userId !== user.id && !user.isAdmin) || !run.resultPath || !isStorageKey(run.resultPath)) {
    throw notFound('Result');
  }
  const bytes = await resultStorageFor(deps.config.dataDir).read(run.resultPath);
  if (!bytes) throw notFound('Result');
  const extension = run.resultPath.split('.').pop() ?? '';
  const filename = run.filename ?? `result.${extension}`;
  return {
    bytes,
    contentType: contentTypeOf(extension),
    isImage: ['png', 'jpg', 'jpeg'].includes(extension),
    disposition: (kind) => contentDisposition(kind, filename),
  };
}
