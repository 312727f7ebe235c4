import { ERROR_STATUS, type ErrorCode } from '#shared/contract/errors.js';

/** An error a caller should see: its message and code reach the answer as `{ error, code }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'You must sign in');
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('VALIDATION_ERROR', message, details);
