/** Every machine-readable error code the API can answer, with its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** A password-reset, verification or e-mail-change link that is unknown, used or expired. */
  INVALID_TOKEN: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_CREDITS: 402,
  /** An API key's monthly credit limit would be passed by this run. */
  SPENDING_LIMIT: 402,
  FORBIDDEN: 403,
  ACCOUNT_SUSPENDED: 403,
  /** Starting a run needs a verified e-mail while `require_email_verification` is on. */
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The workflow is paused (after failures in a row, or by an admin): no run starts until it is resumed. */
  WORKFLOW_PAUSED: 409,
  /** A run's result file removed after its retention period. */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A download's byte range starts past the end of the file. */
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  NOT_CONFIGURED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
