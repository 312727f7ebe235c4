import type { TLanguage } from '#shared/contract/common.js';
import { ERROR_STATUS, ZErrorBody, type ErrorCode } from '#shared/contract/errors.js';
import { type ErrorParams, type ErrorTextKey, errorText } from '#shared/i18n/errors.js';

/** Which text of the catalogue an error says: a case of its code, with the values the text names. */
export type ErrorText<C extends ErrorCode> = ErrorTextKey<C> | { key: ErrorTextKey<C>; params: ErrorParams };

/**
 * An error a caller should see: its code and its text (in the caller's language) reach the answer as
 * `{ error, code }`. The message is the English text, for logs.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly textKey: ErrorTextKey<C>;
  readonly params: ErrorParams | undefined;
  constructor(
    readonly code: C,
    text: ErrorText<C>,
    readonly details?: Record<string, unknown>,
  ) {
    const { key, params }: { key: ErrorTextKey<C>; params?: ErrorParams } =
      typeof text === 'object' ? text : { key: text };
    super(errorText('en', code, key, params));
    this.status = ERROR_STATUS[code];
    this.textKey = key;
    this.params = params;
  }

  /** The error's text in one language. */
  messageIn(language: TLanguage): string {
    return errorText(language, this.code, this.textKey, this.paramsIn(language));
  }

  /** The values its text names, as a reader of `language` sees them (a client words the text with them). */
  paramsIn(_language: TLanguage): ErrorParams | undefined {
    return this.params;
  }
}

export const notFound = (what: ErrorTextKey<'NOT_FOUND'> = 'default') => new AppError('NOT_FOUND', what);
export const forbidden = (text: ErrorText<'FORBIDDEN'> = 'default') => new AppError('FORBIDDEN', text);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'default');
export const conflict = (text: ErrorText<'CONFLICT'>) => new AppError('CONFLICT', text);
export const badRequest = (text: ErrorText<'VALIDATION_ERROR'>, details?: Record<string, unknown>) =>
  new AppError('VALIDATION_ERROR', text, details);

/** A route's error answers for its response schema: the `{ error, code }` body under each status it refuses with. */
export function errorAnswers<const S extends number>(...statuses: S[]): Record<S, typeof ZErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ZErrorBody])) as Record<S, typeof ZErrorBody>;
}
