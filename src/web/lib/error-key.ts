import { ApiError } from './api';

/** One field the server named in a VALIDATION_ERROR (`details.fields`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The fields a 400 answer names, or none. */
export function fieldProblems(err: unknown): FieldProblem[] {
  if (!(err instanceof ApiError)) return [];
  const details = (err.body as { details?: { fields?: unknown } } | null)?.details;
  if (!details || !Array.isArray(details.fields)) return [];
  return details.fields.flatMap((f: unknown) => {
    const { field, message } = (f ?? {}) as { field?: unknown; message?: unknown };
    return typeof field === 'string' ? [{ field, message: typeof message === 'string' ? message : '' }] : [];
  });
}

/** Codes every screen words the same way (keys of the common namespace). */
const COMMON_KEYS: Record<string, string> = {
  INVALID_TOKEN: 'common:errors.invalidToken',
  EMAIL_NOT_VERIFIED: 'common:errors.emailNotVerified',
  RATE_LIMITED: 'common:errors.rateLimited',
  ACCOUNT_SUSPENDED: 'common:errors.accountSuspended',
  UNAUTHENTICATED: 'common:errors.unauthenticated',
  NOT_FOUND: 'common:errors.notFound',
  VALIDATION_ERROR: 'common:errors.validation',
};

/** Keys a screen gives for its own cases: by code (`CONFLICT`) or by code and field (`VALIDATION_ERROR:password`). */
export type ErrorKeys = Partial<Record<string, string>>;

/**
 * The i18n key (namespace-qualified) that explains a failed call in the reader's language, never the
 * server's English text. Looks up, in order: the screen's key for a field the server named
 * (`CODE:field`), the screen's key for the code, a too-common password, the common key for the code; a
 * failed fetch (no answer) is a network problem; anything else is the generic message.
 */
export function errorKey(err: unknown, specific: ErrorKeys = {}): string {
  if (!(err instanceof ApiError)) {
    return err instanceof TypeError ? 'common:errors.network' : 'common:errors.generic';
  }
  const code = err.code ?? '';
  const fields = fieldProblems(err);
  for (const { field } of fields) {
    const key = specific[`${code}:${field}`];
    if (key) return key;
  }
  const byCode = specific[code];
  if (byCode) return byCode;
  if (code === 'VALIDATION_ERROR' && fields.some((f) => /too common/i.test(f.message))) {
    return 'common:errors.passwordTooCommon';
  }
  return COMMON_KEYS[code] ?? 'common:errors.generic';
}

/**
 * Where a form shows a failed call: under one of its fields (the one the server named, or the one a code
 * is about, like CONFLICT for an address taken) or above the form (`field: null`), and with which key.
 */
export function errorPlacement<F extends string>(
  err: unknown,
  fields: readonly F[],
  specific: ErrorKeys = {},
  fieldOfCode: Partial<Record<string, F>> = {},
): { field: F | null; key: string } {
  const key = errorKey(err, specific);
  const code = err instanceof ApiError ? (err.code ?? '') : '';
  const byCode = fieldOfCode[code];
  if (byCode) return { field: byCode, key };
  if (code !== 'VALIDATION_ERROR') return { field: null, key };
  const named = fieldProblems(err).find((p) => (fields as readonly string[]).includes(p.field));
  return { field: (named?.field as F | undefined) ?? null, key };
}
