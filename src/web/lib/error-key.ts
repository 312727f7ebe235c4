import type { TFunction } from 'i18next';
import type { ErrorCode } from '#shared/contract/error-codes';
import type { TErrorDetails } from '#shared/contract/errors';
import { REQUEST_ID_PATTERN } from '#shared/contract/request-id';
import { ApiError } from './api';

const NUMBER_DETAILS = ['limit', 'retryAfter', 'required', 'balance'] as const;

/**
 * The details of a failed call, in the contract's shape (ZErrorDetails): what does not fit it is left out.
 * Read by hand rather than with the schema, so that zod stays out of the first screens' scripts; a test
 * holds the two to the same answers.
 */
export function errorDetails(err: unknown): TErrorDetails {
  if (!(err instanceof ApiError)) return {};
  const details = (err.body as { details?: unknown } | null)?.details;
  if (!details || typeof details !== 'object') return {};
  const given = details as Record<string, unknown>;
  const read: TErrorDetails = {};
  if (Array.isArray(given.fields)) {
    // Malformed entries are skipped, not a reason to lose the well-formed ones.
    read.fields = given.fields.flatMap((f: unknown) => {
      const entry = f as { field?: unknown; message?: unknown } | null;
      if (typeof entry?.field !== 'string') return [];
      return [{ field: entry.field, message: typeof entry.message === 'string' ? entry.message : '' }];
    });
  }
  for (const key of NUMBER_DETAILS) {
    const value = given[key];
    if (typeof value === 'number') read[key] = value;
  }
  return read;
}

/** One field the server named in a VALIDATION_ERROR (`details.fields`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The fields a 400 answer names, or none. */
export function fieldProblems(err: unknown): FieldProblem[] {
  return errorDetails(err).fields ?? [];
}

/** Codes every screen words the same way (keys of the common namespace); the rest use the errors namespace. */
const COMMON_KEYS: Partial<Record<ErrorCode, string>> = {
  INVALID_TOKEN: 'common:errors.invalidToken',
  EMAIL_NOT_VERIFIED: 'common:errors.emailNotVerified',
  RATE_LIMITED: 'common:errors.rateLimited',
  ACCOUNT_SUSPENDED: 'common:errors.accountSuspended',
  UNAUTHENTICATED: 'common:errors.unauthenticated',
  NOT_FOUND: 'common:errors.notFound',
  VALIDATION_ERROR: 'common:errors.validation',
  INTERNAL_ERROR: 'common:errors.generic',
};

/** Keys a screen gives for its own cases: by code (`CONFLICT`) or by code and field (`VALIDATION_ERROR:password`). */
export type ErrorKeys = Partial<Record<ErrorCode | `${ErrorCode}:${string}`, string>>;

/**
 * The i18n key (namespace-qualified) that explains a failed call in the reader's language. Looks up, in
 * order: the screen's key for a field the server named (`CODE:field`), the screen's key for the code, a
 * too-common password, a case the details make clear (a chat at its message limit), the common key for the
 * code, the code's own text in the errors namespace (the server's catalogue); a failed fetch (no answer) is
 * a network problem; a code this client does not know is the generic message (`errorMessage` shows the
 * server's text for it instead).
 */
export function errorKey(err: unknown, specific: ErrorKeys = {}): string {
  if (!(err instanceof ApiError)) {
    return err instanceof TypeError ? 'common:errors.network' : 'common:errors.generic';
  }
  const code = err.code;
  if (!code) return 'common:errors.generic';
  const details = errorDetails(err);
  const fields = details.fields ?? [];
  for (const { field } of fields) {
    const key = specific[`${code}:${field}`];
    if (key) return key;
  }
  const byCode = specific[code];
  if (byCode) return byCode;
  if (code === 'VALIDATION_ERROR' && fields.some((f) => /too common/i.test(f.message))) {
    return 'common:errors.passwordTooCommon';
  }
  if (code === 'CONFLICT' && details.limit !== undefined) return 'errors:CONFLICT.chatLimit';
  return COMMON_KEYS[code] ?? `errors:${code}.default`;
}

/** The values an error's key names, from its details (`{{max}}` of a chat's message limit). */
export function errorParams(err: unknown): Record<string, number> {
  const { limit } = errorDetails(err);
  return limit === undefined ? {} : { max: limit };
}

/**
 * What to show for a failed call: the reader's wording for every code of the contract, and the server's own
 * text only for a code this client does not know (a newer server), which it wrote in the reader's language.
 */
export function errorMessage(t: TFunction, err: unknown, specific: ErrorKeys = {}): string {
  const message = wordedError(t, err, specific);
  const id = requestIdOf(err);
  return id ? t('common:errors.withReference', { message, id }) : message;
}

function wordedError(t: TFunction, err: unknown, specific: ErrorKeys): string {
  if (err instanceof ApiError && err.code === undefined) {
    const body = err.body as { error?: unknown; code?: unknown } | null;
    if (typeof body?.code === 'string' && typeof body.error === 'string' && body.error) return body.error;
  }
  return t(errorKey(err, specific), errorParams(err));
}

/**
 * The id of the request a server error (5xx) happened in, which the server sends in its body: shown with the
 * message so that a person reporting the error can quote it, and whoever runs the server finds its log lines.
 * Only a plain token is shown: the body of a failed answer is not to be trusted as text to display.
 */
function requestIdOf(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status < 500) return null;
  const id = (err.body as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' && REQUEST_ID_PATTERN.test(id) ? id : null;
}

/**
 * Where a form shows a failed call: under one of its fields (the one the server named, or the one a code
 * is about, like CONFLICT for an address taken) or above the form (`field: null`), and with which key.
 */
export function errorPlacement<F extends string>(
  err: unknown,
  fields: readonly F[],
  specific: ErrorKeys = {},
  fieldOfCode: Partial<Record<ErrorCode, F>> = {},
): { field: F | null; key: string } {
  const key = errorKey(err, specific);
  const code = err instanceof ApiError ? err.code : undefined;
  const byCode = code ? fieldOfCode[code] : undefined;
  if (byCode) return { field: byCode, key };
  if (code !== 'VALIDATION_ERROR') return { field: null, key };
  const named = fieldProblems(err).find((p) => (fields as readonly string[]).includes(p.field));
  return { field: (named?.field as F | undefined) ?? null, key };
}

/** A form's messages for a failed call: one under the field `errorPlacement` chooses, or one for the form. */
export function formErrors<F extends string>(
  t: TFunction,
  err: unknown,
  fields: readonly F[],
  specific?: ErrorKeys,
  fieldOfCode?: Partial<Record<ErrorCode, F>>,
): Partial<Record<F | 'form', string>> {
  const { field, key } = errorPlacement(err, fields, specific, fieldOfCode);
  const errors: Partial<Record<F | 'form', string>> = {};
  errors[field ?? 'form'] = t(key);
  return errors;
}
