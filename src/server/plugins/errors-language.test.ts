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
    expect(res.json()).toEqual({ error: 'Incorrect email or password', code: 'UNAUTHENTICATED' });
  });

  it('answers in Spanish for Accept-Language', async () => {
    const res = await wrongSignIn({ 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' });
    expect(res.json()).toEqual({ error: 'Correo o contraseña incorrectos', code: 'UNAUTHENTICATED' });
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
    expect(taken.json()).toEqual({ error: 'Ya existe una cuenta con este correo', code: 'CONFLICT' });

    const visitor = await new TestClient(t).get('/api/credits/transactions', { cookie: 'lng=es' });
    expect(visitor.json()).toEqual({ error: 'Debes iniciar sesión', code: 'UNAUTHENTICATED' });

    const invalid = await new TestClient(t).post(
      '/api/auth/signup',
      { email: 'x' },
      { 'accept-language': 'es' },
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((invalid.json() as { error: string }).error).toMatch(/^Solicitud no válida: /);
  });

  it('answers in English for an English Accept-Language', async () => {
    const res = await new TestClient(t).get('/api/credits/transactions', { 'accept-language': 'en-GB' });
    expect(res.json()).toEqual({ error: 'You must sign in', code: 'UNAUTHENTICATED' });
  });
});
