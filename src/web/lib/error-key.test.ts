import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode, ZErrorDetails } from '#shared/contract/errors';
import { ERROR_TEXTS } from '#shared/i18n/errors';
import commonEn from '../i18n/locales/en/common.json';
import commonEs from '../i18n/locales/es/common.json';
import { ApiError } from './api-client';
import {
  errorDetails,
  errorKey,
  errorMessage,
  errorParams,
  errorPlacement,
  fieldProblems,
  formErrors,
} from './error-key';

const apiError = (
  status: number,
  code: ErrorCode | undefined,
  details?: unknown,
  textCase?: { key: string; params?: Record<string, string | number> },
) =>
  new ApiError('Server text in English', status, code, {
    error: 'Server text in English',
    code,
    details,
    ...textCase,
  });

/** A t() that words a namespace-qualified key in one language, filling its `{{values}}`. */
const wording =
  (language: 'en' | 'es') =>
  (key: string, params?: Record<string, unknown>): string => {
    const text = resolve(language, key);
    if (typeof text !== 'string') throw new Error(`no text for ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params?.[name] ?? ''));
  };

/** The text a namespace-qualified key names in one language's bundles, or undefined. */
function resolve(language: 'en' | 'es', key: string): unknown {
  const [ns = '', path = ''] = key.split(':');
  const bundles: Record<string, unknown> = {
    common: language === 'en' ? commonEn : commonEs,
    errors: ERROR_TEXTS[language],
  };
  return path
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundles[ns]);
}

describe('errorKey', () => {
  it.each([
    ['INVALID_TOKEN', 400, 'common:errors.invalidToken'],
    ['EMAIL_NOT_VERIFIED', 403, 'common:errors.emailNotVerified'],
    ['RATE_LIMITED', 429, 'common:errors.rateLimited'],
    ['ACCOUNT_SUSPENDED', 403, 'common:errors.accountSuspended'],
    ['VALIDATION_ERROR', 400, 'common:errors.validation'],
  ] as const)('maps %s to its common key', (code, status, key) => {
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

  it('names a too common password by its case, whatever the field is called or the server wrote', () => {
    const err = apiError(
      400,
      'VALIDATION_ERROR',
      { fields: [{ field: 'newPassword', message: 'zu häufig', key: 'passwordTooCommon' }] },
      { key: 'passwordTooCommon' },
    );
    expect(errorKey(err)).toBe('errors:VALIDATION_ERROR.passwordTooCommon');
  });

  it("keeps the client's own wording for a code's default case, the schema check and a case it does not know", () => {
    expect(errorKey(apiError(404, 'NOT_FOUND', undefined, { key: 'default' }))).toBe(
      'common:errors.notFound',
    );
    expect(
      errorKey(
        apiError(400, 'VALIDATION_ERROR', undefined, { key: 'invalidRequest', params: { fields: 'x' } }),
      ),
    ).toBe('common:errors.validation');
    expect(errorKey(apiError(409, 'CONFLICT', undefined, { key: 'somethingNewer' }))).toBe(
      'errors:CONFLICT.default',
    );
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

describe('formErrors', () => {
  const t = ((key: string) => `text of ${key}`) as TFunction;
  it('words the message under the field the error is placed on, and nothing for the form', () => {
    const err = apiError(400, 'VALIDATION_ERROR', { fields: [{ field: 'password', message: 'wrong' }] });
    expect(formErrors(t, err, ['password'], { 'VALIDATION_ERROR:password': 'account:wrong' })).toEqual({
      password: 'text of account:wrong',
    });
  });
  it("words an error no field answers for as the form's", () => {
    expect(formErrors(t, apiError(429, 'RATE_LIMITED'), ['password'])).toEqual({
      form: 'text of common:errors.rateLimited',
    });
  });
});

describe('every error code of the contract', () => {
  it.each(Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>)(
    '%s has a text in both languages',
    (code, status) => {
      const key = errorKey(apiError(status, code));
      expect(resolve('en', key), key).toMatch(/\S/);
      expect(resolve('es', key), key).toMatch(/\S/);
    },
  );

  it('words a chat at its message limit by its case and values', () => {
    const err = apiError(409, 'CONFLICT', { limit: 20 }, { key: 'chatLimit', params: { max: 20 } });
    expect(errorKey(err)).toBe('errors:CONFLICT.chatLimit');
    const t = ((key: string, params?: Record<string, unknown>) =>
      `${key} ${JSON.stringify(params)}`) as TFunction;
    expect(errorMessage(t, err)).toBe('errors:CONFLICT.chatLimit {"max":20}');
  });
});

describe('errorMessage', () => {
  const t = ((key: string) => `t(${key})`) as TFunction;
  it('words a known code in the reader language, never with the server text', () => {
    expect(errorMessage(t, apiError(402, 'INSUFFICIENT_CREDITS'))).toBe(
      't(errors:INSUFFICIENT_CREDITS.default)',
    );
    expect(errorMessage(t, apiError(401, 'UNAUTHENTICATED'), { UNAUTHENTICATED: 'auth:signin.error' })).toBe(
      't(auth:signin.error)',
    );
  });
  it('shows the server text only for a code this client does not know', () => {
    const body = { error: 'Texto del servidor', code: 'SOMETHING_NEW' };
    expect(errorMessage(t, new ApiError('Texto del servidor', 418, undefined, body))).toBe(
      'Texto del servidor',
    );
    expect(errorMessage(t, new ApiError('Request failed', 502, undefined, '<html>'))).toBe(
      't(common:errors.generic)',
    );
  });

  it("adds a server error's request id, in the reader's language, for the person to quote", () => {
    const id = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    const failed = (status: number, requestId: unknown) =>
      new ApiError('Internal error', status, 'INTERNAL_ERROR', {
        error: 'x',
        code: 'INTERNAL_ERROR',
        requestId,
      });
    for (const language of ['en', 'es'] as const) {
      const words = (key: string, params?: Record<string, string>) => {
        const text = resolve(language, key);
        if (typeof text !== 'string') throw new Error(`no text for ${key}`);
        return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params?.[name] ?? '');
      };
      const shown = errorMessage(words as TFunction, failed(500, id));
      expect(shown).toContain(id);
      expect(shown.startsWith(words('common:errors.generic'))).toBe(true);
    }
    expect(errorMessage(t, failed(500, id))).toBe('t(common:errors.withReference)');
    // Not a server error, or not a plain token: the message alone.
    expect(errorMessage(t, apiError(404, 'NOT_FOUND'))).toBe('t(common:errors.notFound)');
    expect(errorMessage(t, failed(500, '<img src=x onerror=alert(1)>'))).toBe('t(common:errors.generic)');
    expect(errorMessage(t, failed(500, 42))).toBe('t(common:errors.generic)');
  });
});

describe('a suspended account', () => {
  it('is told where to write when the server names the operator’s address, and only then', () => {
    const withContact = apiError(
      403,
      'ACCOUNT_SUSPENDED',
      { supportEmail: 'help@example.com' },
      { key: 'withContact', params: { email: 'help@example.com' } },
    );
    expect(errorKey(withContact)).toBe('errors:ACCOUNT_SUSPENDED.withContact');
    const t = ((key: string, params?: Record<string, unknown>) =>
      `${key} ${JSON.stringify(params)}`) as TFunction;
    expect(errorMessage(t, withContact)).toBe(
      'errors:ACCOUNT_SUSPENDED.withContact {"email":"help@example.com"}',
    );
    expect(errorParams(withContact)).toEqual({ email: 'help@example.com' });
    expect(errorKey(apiError(403, 'ACCOUNT_SUSPENDED', undefined, { key: 'default' }))).toBe(
      'common:errors.accountSuspended',
    );
    expect(errorParams(apiError(403, 'ACCOUNT_SUSPENDED', { supportEmail: '' }))).toEqual({});
  });
});

describe('an error that names its case', () => {
  it.each([
    ['en', 'An account can hold at most 20 API keys'],
    ['es', 'Una cuenta puede tener como máximo 20 claves de API'],
  ] as const)('is worded in %s from the catalogue, never with the server text', (language, expected) => {
    const err = apiError(409, 'CONFLICT', undefined, { key: 'tooManyApiKeys', params: { max: 20 } });
    const shown = errorMessage(wording(language) as TFunction, err);
    expect(shown).toBe(expected);
    expect(shown).not.toContain('Server text');
  });

  it.each(['en', 'es'] as const)('puts a keyed refusal of a field under that field in %s', (language) => {
    const err = apiError(
      400,
      'VALIDATION_ERROR',
      { fields: [{ field: 'password', message: 'too common', key: 'passwordTooCommon' }] },
      { key: 'passwordTooCommon' },
    );
    expect(formErrors(wording(language) as TFunction, err, ['email', 'password'])).toEqual({
      password: ERROR_TEXTS[language].VALIDATION_ERROR.passwordTooCommon,
    });
  });
});

describe('errorDetails', () => {
  it.each([
    [{ fields: [{ field: 'email', message: 'taken' }] }],
    [{ fields: [{ field: 'email', message: 42 }, { field: 'name' }] }],
    [{ fields: [{ field: 'answers.age', message: 'x', key: 'answerBelowMin', params: { min: 18 } }] }],
    [{ limit: 20 }],
    [{ retryAfter: 30 }],
    [{ required: 3, balance: 1 }],
    [{ supportEmail: 'help@example.com' }],
    [{ limit: 5, extra: 'ignored', fields: [] }],
    [{}],
  ])('reads %j as the contract schema does', (details) => {
    expect(errorDetails(apiError(400, 'VALIDATION_ERROR', details))).toEqual(ZErrorDetails.parse(details));
  });

  it('skips what does not fit and keeps the rest', () => {
    const details = {
      fields: [{ field: 'email', message: 'bad' }, null, { message: 'no field' }],
      limit: 'x',
    };
    expect(errorDetails(apiError(400, 'VALIDATION_ERROR', details))).toEqual({
      fields: [{ field: 'email', message: 'bad' }],
    });
    expect(errorDetails(apiError(400, 'VALIDATION_ERROR', 'text'))).toEqual({});
    expect(errorDetails(new Error('x'))).toEqual({});
  });
});
