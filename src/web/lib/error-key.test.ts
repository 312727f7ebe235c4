import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { errorKey, errorPlacement, fieldProblems } from './error-key';

const apiError = (status: number, code: string | undefined, details?: unknown) =>
  new ApiError('Server text in English', status, code, { error: 'Server text in English', code, details });

describe('errorKey', () => {
  it.each([
    ['INVALID_TOKEN', 400, 'common:errors.invalidToken'],
    ['EMAIL_NOT_VERIFIED', 403, 'common:errors.emailNotVerified'],
    ['RATE_LIMITED', 429, 'common:errors.rateLimited'],
    ['ACCOUNT_SUSPENDED', 403, 'common:errors.accountSuspended'],
    ['VALIDATION_ERROR', 400, 'common:errors.validation'],
  ])('maps %s to its common key', (code, status, key) => {
    expect(errorKey(apiError(status, code))).toBe(key);
  });

  it('prefers the screen key for the code', () => {
    expect(errorKey(apiError(409, 'CONFLICT'), { CONFLICT: 'account:settings.email.taken' })).toBe(
      'account:settings.email.taken',
    );
  });

  it('prefers a key for the field the server named over the key for the code', () => {
    const err = apiError(400, 'VALIDATION_ERROR', {
      fields: [{ field: 'currentPassword', message: 'wrong' }],
    });
    expect(
      errorKey(err, {
        VALIDATION_ERROR: 'account:settings.password.invalid',
        'VALIDATION_ERROR:currentPassword': 'account:settings.password.wrongCurrent',
      }),
    ).toBe('account:settings.password.wrongCurrent');
  });

  it('names a too common password whatever the field is called', () => {
    const err = apiError(400, 'VALIDATION_ERROR', {
      fields: [{ field: 'newPassword', message: 'too common' }],
    });
    expect(errorKey(err)).toBe('common:errors.passwordTooCommon');
  });

  it('falls back to the generic message for unknown codes and answers without a code', () => {
    expect(errorKey(apiError(500, 'INTERNAL_ERROR'))).toBe('common:errors.generic');
    expect(errorKey(apiError(502, undefined))).toBe('common:errors.generic');
    expect(errorKey(new Error('boom'))).toBe('common:errors.generic');
  });

  it('calls a failed fetch a network problem', () => {
    expect(errorKey(new TypeError('Failed to fetch'))).toBe('common:errors.network');
  });
});

describe('fieldProblems', () => {
  it('reads details.fields and skips malformed entries', () => {
    const err = apiError(400, 'VALIDATION_ERROR', {
      fields: [
        { field: 'password', message: 'too common' },
        { message: 'no field' },
        null,
        { field: 'email' },
      ],
    });
    expect(fieldProblems(err)).toEqual([
      { field: 'password', message: 'too common' },
      { field: 'email', message: '' },
    ]);
  });
  it('is empty for anything else', () => {
    expect(fieldProblems(apiError(400, 'VALIDATION_ERROR'))).toEqual([]);
    expect(fieldProblems(new Error('x'))).toEqual([]);
  });
});

describe('errorPlacement', () => {
  const fields = ['newEmail', 'password'] as const;
  it('puts a wrong password under the password field with its key', () => {
    const err = apiError(400, 'VALIDATION_ERROR', { fields: [{ field: 'password', message: 'wrong' }] });
    expect(errorPlacement(err, fields, { 'VALIDATION_ERROR:password': 'account:wrong' })).toEqual({
      field: 'password',
      key: 'account:wrong',
    });
  });
  it('puts a code under the field it is about', () => {
    expect(
      errorPlacement(
        apiError(409, 'CONFLICT'),
        fields,
        { CONFLICT: 'account:taken' },
        { CONFLICT: 'newEmail' },
      ),
    ).toEqual({ field: 'newEmail', key: 'account:taken' });
  });
  it('puts a field the form does not have, and other codes, above the form', () => {
    const err = apiError(400, 'VALIDATION_ERROR', { fields: [{ field: 'other', message: 'x' }] });
    expect(errorPlacement(err, fields)).toEqual({ field: null, key: 'common:errors.validation' });
    expect(errorPlacement(apiError(429, 'RATE_LIMITED'), fields)).toEqual({
      field: null,
      key: 'common:errors.rateLimited',
    });
  });
});
