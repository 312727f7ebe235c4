import { z } from 'zod';

// The codes live in a module without zod, so the web app's first screens can use them without loading zod.
export { ERROR_STATUS, isErrorCode, type ErrorCode } from './error-codes.js';

/** The values a text of the catalogue of error texts names (`{{max}}`), as the server filled them in. */
const ZErrorParams = z.record(z.string(), z.union([z.string(), z.number()]));

/** The details some errors carry; a client reads them through this shape, never by guessing. */
export const ZErrorDetails = z.object({
  /** VALIDATION_ERROR: the fields the server named. */
  fields: z
    .array(
      z.object({
        field: z.string(),
        message: z.string().catch(''),
        /** The message's case in the catalogue (`VALIDATION_ERROR.<key>`) and its values, when it has one. */
        key: z.string().optional(),
        params: ZErrorParams.optional(),
      }),
    )
    .optional(),
  /** CONFLICT of a chat at its message limit, VALIDATION_ERROR of a too long message: the limit. */
  limit: z.number().optional(),
  /** RATE_LIMITED: seconds to wait. */
  retryAfter: z.number().optional(),
  /** INSUFFICIENT_CREDITS: the run's price and the balance. */
  required: z.number().optional(),
  balance: z.number().optional(),
  /** ACCOUNT_SUSPENDED: the operator's address to write to (config `support_email`), when one is set. */
  supportEmail: z.string().optional(),
});
export type TErrorDetails = z.infer<typeof ZErrorDetails>;

export const ZErrorBody = z.object({
  /** The text in the caller's language: what to show when a client does not word the case itself. */
  error: z.string(),
  code: z.string(),
  key: z
    .string()
    .describe(
      "The error's case: the key of its text under its code in the catalogue of error texts (`default` is " +
        "the code's own wording). A client that words errors itself chooses by `code` and `key`.",
    ),
  params: ZErrorParams.optional().describe('The values the text of `key` names, when it names any'),
  details: z.unknown().optional(),
  /** On a 5xx: the request's id, as in the server's log (and its X-Request-Id header), to quote when reporting it. */
  requestId: z.string().optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
