import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { TLanguage } from '#shared/contract/common.js';
import type { ErrorCode } from '#shared/contract/errors.js';
import { errorText } from '#shared/i18n/errors.js';
import { AppError } from '../lib/errors.js';
import { requestLanguage } from '../lib/language.js';
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

/** Fastify's refusals of a JSON body it could not parse, as cases of VALIDATION_ERROR. */
const UNPARSED_BODY: Partial<Record<string, 'invalidJsonBody' | 'emptyJsonBody'>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalidJsonBody',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'emptyJsonBody',
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

/** A 500 says nothing of its cause, only the request id a person can quote (the log line has the rest). */
function internalError(language: TLanguage, requestId: string) {
  return {
    error: errorText(language, 'INTERNAL_ERROR', 'default'),
    code: 'INTERNAL_ERROR',
    key: 'default',
    requestId,
  };
}

/**
 * Every error leaves as `{ error, code, key }`: its text in the caller's language (`lng` cookie,
 * Accept-Language, English), and the case of its code as the text's key in the catalogue (with the `params`
 * the text names), for a client that words the error itself; a 5xx never shows its internals, and carries the `requestId` of its log lines instead.
 * `debugErrors` (DEBUG_ERRORS) also prints an unhandled error to stderr, where a developer sees it without
 * reading the JSON log.
 */
export function registerErrorHandling(app: App, options: { debugErrors: boolean }): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    const language = requestLanguage(request);
    if (err instanceof AppError) {
      if (err.code === 'RATE_LIMITED' && typeof err.details?.retryAfter === 'number') {
        void reply.header('retry-after', String(err.details.retryAfter));
      }
      if (err.status >= 500) request.log.warn({ code: err.code }, err.message);
      const params = err.paramsIn(language);
      return reply.status(err.status).send({
        error: err.messageIn(language),
        code: err.code,
        key: err.textKey,
        ...(params ? { params } : {}),
        ...(err.details ? { details: err.details } : {}),
        ...(err.status >= 500 ? { requestId: request.id } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'invalid',
      }));
      const params = { fields: fields.map((f) => f.field || f.message).join(', ') };
      return reply.status(400).send({
        error: errorText(language, 'VALIDATION_ERROR', 'invalidRequest', params),
        code: 'VALIDATION_ERROR',
        key: 'invalidRequest',
        params,
        details: { fields },
      });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send(internalError(language, request.id));
    }
    if (isDataException(err)) {
      // The database refused a value the schemas let through (a NUL character in text, say): bad input.
      return reply.status(400).send({
        error: errorText(language, 'VALIDATION_ERROR', 'valueNotStorable'),
        code: 'VALIDATION_ERROR',
        key: 'valueNotStorable',
      });
    }
    const unparsed = UNPARSED_BODY[err.code];
    if (unparsed) {
      // Fastify's own text for a body it could not parse is English only; these are worded as any other 400.
      return reply.status(400).send({
        error: errorText(language, 'VALIDATION_ERROR', unparsed),
        code: 'VALIDATION_ERROR',
        key: unparsed,
      });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = STATUS_CODES[status] ?? 'VALIDATION_ERROR';
      // The framework's own texts are English only: an English reader keeps their detail, others get the
      // code's wording in their language.
      const error = language === 'en' ? err.message : errorText(language, code, 'default');
      return reply.status(status).send({ error, code, key: 'default' });
    }
    request.log.error({ err }, 'unhandled error');
    if (options.debugErrors) console.error(err);
    return reply.status(500).send(internalError(language, request.id));
  });
}
