import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.js';

/** A file as it came in a multipart body. */
export interface MultipartFile {
  filename: string;
  bytes: Buffer;
}

/**
 * Reads a multipart body of a few short fields and one `file` part (a survey's file answer, to a run or to
 * saved answers), the file up to `maxBytes` (413 with the size's own text beyond it; the question's own limit
 * is checked afterwards). The route's scope registers @fastify/multipart with `throwFileSizeLimit`. Fields are
 * read as sent, before the file; a body that cannot be read is 400.
 */
export async function readMultipartFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: MultipartFile | undefined }> {
  // No prototype: a field named like one of its properties stays a field.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let file: MultipartFile | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        file = { filename: part.filename, bytes: await part.toBuffer() };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const status = (err as { statusCode?: unknown }).statusCode;
    // Only the file's own size gets the size text; other limits (a second file, too many parts) keep theirs.
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', {
        key: 'inputFileTooLarge',
        params: { mb: maxBytes / (1024 * 1024) },
      });
    }
    if (typeof status === 'number' && status >= 400 && status < 500) throw err;
    throw badRequest('multipartUnreadable');
  }
  return { fields, file };
}
