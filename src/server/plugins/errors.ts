import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode } from '#shared/contract/errors.js';
import { AppError } from '../lib/errors.js';
import type { App } from '../types.js';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * PostgreSQL's class 22 ("data exception": invalid byte sequence, value out of range, bad text form) comes
 * only from a value sent to the database; drivers put the SQLSTATE on the error or, through Drizzle, its cause.
 */
function isDataException(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Every error leaves as `{ error, code }`; a 5xx never shows its internals. `debugErrors` (DEBUG_ERRORS) also
 * prints an unhandled error to stderr, where a developer sees it without reading the JSON log.
 */
export function registerErrorHandling(app: App, options: { debugErrors: boolean }): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.code === 'RATE_LIMITED' && typeof err.details?.retryAfter === 'number') {
        void reply.header('retry-after', String(err.details.retryAfter));
      }
      if (err.status >= 500) request.log.warn({ code: err.code }, err.message);
      return reply
        .status(err.status)
        .send({ error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'invalid',
      }));
      return reply.status(400).send({
        error: `Invalid request: ${fields.map((f) => f.field || f.message).join(', ')}`,
        code: 'VALIDATION_ERROR',
        details: { fields },
      });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
    }
    if (isDataException(err)) {
      // The database refused a value the schemas let through (a NUL character in text, say): bad input.
      return reply
        .status(400)
        .send({ error: 'Invalid request: a value cannot be stored', code: 'VALIDATION_ERROR' });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ error: err.message, code: STATUS_CODES[status] ?? 'VALIDATION_ERROR' });
    }
    request.log.error({ err }, 'unhandled error');
    if (options.debugErrors) console.error(err);
    return reply.status(500).send({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
  });
}
