import type { TFunction } from 'i18next';
import type { ErrorCode } from '#shared/contract/error-codes';
import type { TErrorDetails } from '#shared/contract/errors';
import { REQUEST_ID_PATTERN } from '#shared/contract/request-id';
import { ERROR_TEXTS } from '#shared/i18n/errors';
import { ApiError, textParams } from './api-client';

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
      const entry = f as { field?: unknown; message?: unknown; key?: unknown; params?: unknown } | null;
      if (typeof entry?.field !== 'string') return [];
      const params = textParams(entry.params);
      return [
        {
          field: entry.field,
          message: typeof entry.message === 'string' ? entry.message : '',
          ...(typeof entry.key === 'string' ? { key: entry.key } : {}),
          ...(params ? { params } : {}),
        },
      ];
    });
  }
  for (const key of NUMBER_DETAILS) {
    const value = given[key];
    if (typeof value === 'number') read[key] = value;
  }
  if (typeof given.supportEmail === 'string') read.supportEmail = given.supportEmail;
  return read;
}

/**
 * The catalogue's key (namespace-qualified) of an error's case, when the catalogue has that case: the
 * server's `key` under its code. Not `default`, which the client words with its own common keys, nor the
 * schema check's `invalidRequest`, whose list of field paths a form shows next to its fields instead.
 */
export function caseKey(code: ErrorCode, key: string | undefined): string | null {
  if (!key || key === 'default' || key === 'invalidRequest') return null;
  const texts: Readonly<Record<string, string>> = ERROR_TEXTS.en[code];
  return Object.hasOwn(texts, key) ? `errors:${code}.${key}` : null;
}

/** One field the server named in a VALIDATION_ERROR (`details.fields`), with its case when it has one. */
export interface FieldProblem {
  field: string;
  message: string;
  key?: string;
  params?: Record<string, string | number>;
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
 * order: the screen's key for a field the server named (`CODE:field`), the screen's key for the code, the
 * case the server named (its `key` in the errors namespace: a too common password, a chat at its message
 * limit, a suspension with the address to write to), the common key for the code, the code's own text in
 * the errors namespace; a failed fetch (no answer) is a network problem; a code this client does not know
 * is the generic message (`errorMessage` shows the server's text for it instead). Never the server's English.
 */
export function errorKey(err: unknown, specific: ErrorKeys = {}): string {
  if (!(err instanceof ApiError)) {
    return err instanceof TypeError ? 'common:errors.network' : 'common:errors.generic';
  }
  const code = err.code;
  if (!code) return 'common:errors.generic';
  for (const { field } of fieldProblems(err)) {
    const key = specific[`${code}:${field}`];
    if (key) return key;
  }
  const byCode = specific[code];
  if (byCode) return byCode;
  return caseKey(code, err.key) ?? COMMON_KEYS[code] ?? `errors:${code}.default`;
}

/**
 * The values an error's key names: the server's `params` of its case (`{{max}}` of a chat's message limit,
 * `{{email}}` of the operator's address given to a suspended person), and `{{max}}` from `details.limit`
 * for a screen's own key.
 */
export function errorParams(err: unknown): Record<string, number | string> {
  if (!(err instanceof ApiError)) return {};
  const { limit } = errorDetails(err);
  return { ...(limit === undefined ? {} : { max: limit }), ...err.params };
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
  errors[field ?? 'form'] = t(key, errorParams(err));
  return errors;
}
