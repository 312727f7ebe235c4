import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const wrongSignIn = (headers: Record<string, string>) =>
  new TestClient(t).post(
    '/api/auth/signin',
    { email: uniqueEmail('nobody'), password: 'not-the-password' },
    headers,
  );

describe('error texts in the caller language', () => {
  it('answers in English without a language, and keeps the code', async () => {
    const res = await wrongSignIn({});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'Incorrect email or password',
      code: 'UNAUTHENTICATED',
      key: 'invalidCredentials',
    });
  });

  it('answers in Spanish for Accept-Language', async () => {
    const res = await wrongSignIn({ 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' });
    expect(res.json()).toEqual({
      error: 'Correo o contraseña incorrectos',
      code: 'UNAUTHENTICATED',
      key: 'invalidCredentials',
    });
  });

  it('prefers the lng cookie over Accept-Language', async () => {
    const es = await wrongSignIn({ cookie: 'lng=es', 'accept-language': 'en-US' });
    expect(es.json()).toMatchObject({ error: 'Correo o contraseña incorrectos' });
    const en = await wrongSignIn({ cookie: 'lng=en', 'accept-language': 'es' });
    expect(en.json()).toMatchObject({ error: 'Incorrect email or password' });
  });

  it('words a taken address, a missing session and a bad body in Spanish', async () => {
    const { email } = await signUpUser(t);
    const taken = await new TestClient(t).post(
      '/api/auth/signup',
      { email, password: 'correct-horse-battery', fullName: 'Otra Persona' },
      { 'accept-language': 'es' },
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error: 'Ya existe una cuenta con este correo',
      code: 'CONFLICT',
      key: 'emailTaken',
    });

    const visitor = await new TestClient(t).get('/api/credits/transactions', { cookie: 'lng=es' });
    expect(visitor.json()).toEqual({
      error: 'Debes iniciar sesión',
      code: 'UNAUTHENTICATED',
      key: 'default',
    });

    const invalid = await new TestClient(t).post(
      '/api/auth/signup',
      { email: 'x' },
      { 'accept-language': 'es' },
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((invalid.json() as { error: string }).error).toMatch(/^Solicitud no válida: /);
  });

  it('words a body that is not JSON as any other 400, in the reader language, and stores nothing', async () => {
    const email = uniqueEmail('notjson');
    const send = (payload: string, language: string) =>
      new TestClient(t).post('/api/auth/signup', payload, {
        'content-type': 'application/json',
        'accept-language': language,
      });
    expect((await send('{bad', 'es')).json()).toEqual({
      error: 'El cuerpo de la petición no es JSON válido',
      code: 'VALIDATION_ERROR',
      key: 'invalidJsonBody',
    });
    const en = await send(`{"email":"${email}"`, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({
      error: 'The request body is not valid JSON',
      code: 'VALIDATION_ERROR',
      key: 'invalidJsonBody',
    });
    const empty = await send('', 'es');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      error: 'El cuerpo de la petición está vacío, pero su Content-Type dice JSON',
      code: 'VALIDATION_ERROR',
      key: 'emptyJsonBody',
    });
    // Nothing was created: the address can still sign in as nobody.
    const signIn = await new TestClient(t).post('/api/auth/signin', { email, password: 'whatever-it-is' });
    expect(signIn.statusCode).toBe(401);
  });

  it('answers in English for an English Accept-Language', async () => {
    const res = await new TestClient(t).get('/api/credits/transactions', { 'accept-language': 'en-GB' });
    expect(res.json()).toEqual({ error: 'You must sign in', code: 'UNAUTHENTICATED', key: 'default' });
  });

  it('carries the case of its text as a key, the same in both languages, with the values it names', async () => {
    const tooCommon = (lng: string) =>
      new TestClient(t).post(
        '/api/auth/signup',
        { email: uniqueEmail(), password: 'qwertyuiop', fullName: 'Common' },
        { 'accept-language': lng },
      );
    for (const [lng, text] of [
      ['en', /too common/],
      ['es', /demasiado común/],
    ] as const) {
      const res = await tooCommon(lng);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: expect.stringMatching(text),
        code: 'VALIDATION_ERROR',
        key: 'passwordTooCommon',
        details: { fields: [{ field: 'password', key: 'passwordTooCommon' }] },
      });
    }

    // A text with a value: the value travels beside the key, as the server filled it in.
    const invalid = await new TestClient(t).post(
      '/api/auth/signup',
      { email: 'x' },
      { 'accept-language': 'es' },
    );
    expect(invalid.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      key: 'invalidRequest',
      params: { fields: expect.stringContaining('email') },
    });
  });
});
