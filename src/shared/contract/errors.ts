import { z } from 'zod';

// The codes live in a module without zod, so the web app's first screens can use them without loading zod.
export { ERROR_STATUS, isErrorCode, type ErrorCode } from './error-codes.js';

/** The details some errors carry; a client reads them through this shape, never by guessing. */
export const ZErrorDetails = z.object({
  /** VALIDATION_ERROR: the fields the server named. */
  fields: z.array(z.object({ field: z.string(), message: z.string().catch('') })).optional(),
  /** CONFLICT of a chat at its message limit, VALIDATION_ERROR of a too long message: the limit. */
  limit: z.number().optional(),
  /** RATE_LIMITED: seconds to wait. */
  retryAfter: z.number().optional(),
  /** INSUFFICIENT_CREDITS: the run's price and the balance. */
  required: z.number().optional(),
  balance: z.number().optional(),
});
export type TErrorDetails = z.infer<typeof ZErrorDetails>;

export const ZErrorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.unknown().optional(),
  /** On a 5xx: the request's id, as in the server's log (and its X-Request-Id header), to quote when reporting it. */
  requestId: z.string().optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
