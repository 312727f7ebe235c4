import { useTestApp } from '#server/test/harness.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { buildTestApp, TEST_ADMIN } from '../test/harness.js';
import { signInAdmin, signUpUser, uniqueEmail } from '../test/client.js';

const t = useTestApp();

const countUsers = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n;

/** A raw call with exactly the headers given (no Origin added). */
function raw(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: string,
) {
  return t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
}

const signupJson = () => JSON.stringify({ email: uniqueEmail(), password: 'csrf-password-1', fullName: 'C' });
const json = { 'content-type': 'application/json' };

describe('CSRF: state-changing calls must come from our own pages', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: cross-site even with our Origin', { 'sec-fetch-site': 'cross-site', origin: 'ORIGIN' }],
    ['no Sec-Fetch-Site and no Origin', {}],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
    ['our host on another port', { origin: 'http://localhost:1' }],
    ['our origin as a prefix of another host', { origin: 'ORIGIN.evil.example' }],
  ])('refuses %s with 403 and writes nothing', async (_label, extra) => {
    const headers: Record<string, string> = { ...json };
    for (const [k, v] of Object.entries(extra)) headers[k] = v.replace('ORIGIN', t.origin);
    const before = await countUsers();
    const res = await raw('POST', '/api/auth/signup', headers, signupJson());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'FORBIDDEN', key: 'crossSite' });
    expect(await countUsers()).toBe(before);
  });

  it.each(['/%61pi/auth/signup', '/api/auth/%73ignup', '/api/auth/signup/', '/api/auth//signup'])(
    'cannot be dodged with another spelling of the path (%s)',
    async (url) => {
      const before = await countUsers();
      const res = await raw('POST', url, { ...json, 'sec-fetch-site': 'cross-site' }, signupJson());
      expect(res.statusCode).toBe(403);
      expect(await countUsers()).toBe(before);
    },
  );

  it('cannot borrow an exemption through an encoded path', async () => {
    const before = await countUsers();
    const res = await raw(
      'POST',
      '/api/workflow-result/%2e%2e/auth/signup',
      { ...json, 'sec-fetch-site': 'cross-site' },
      signupJson(),
    );
    expect([403, 404]).toContain(res.statusCode);
    expect(await countUsers()).toBe(before);
  });

  it.each(['PATCH', 'PUT', 'DELETE'] as const)('applies to %s as well', async (method) => {
    const { client } = await signUpUser(t);
    const res = await raw(method, '/api/auth/me', { cookie: client.cookie!, origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
  });

  it('a signed-in user cannot be signed out from another site', async () => {
    const { client } = await signUpUser(t);
    const res = await raw('POST', '/api/auth/signout', {
      cookie: client.cookie!,
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['our Origin without fetch metadata (older browsers)', { origin: 'ORIGIN' }],
  ])('accepts %s', async (_label, extra) => {
    const headers: Record<string, string> = { ...json };
    for (const [k, v] of Object.entries(extra)) headers[k] = v.replace('ORIGIN', t.origin);
    const res = await raw('POST', '/api/auth/signup', headers, signupJson());
    expect(res.statusCode).toBe(201);
  });

  it('reads are not affected', async () => {
    const res = await raw('GET', '/api/auth/me', { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(401);
  });

  it.each(['/api/workflow-result', '/api/payments/stripe/webhook'])(
    'exempts the signed callback %s (it proves itself with a signature or token, not an Origin)',
    async (url) => {
      const res = await raw('POST', url, json, JSON.stringify({}));
      // Refused for its missing signature or token (or 503 while Stripe is not configured), never by CSRF.
      expect(res.statusCode).not.toBe(403);
      expect(res.statusCode).not.toBe(500);
      expect(res.json()).toEqual(
        expect.objectContaining({ error: expect.any(String), code: expect.any(String) }),
      );
    },
  );
});

describe('JSON endpoints accept only JSON bodies', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain with a charset', 'text/plain; charset=utf-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['XML', 'application/xml'],
  ])('answers %s with 415 { error, code } and writes nothing', async (_label, type) => {
    const before = await countUsers();
    const res = await raw(
      'POST',
      '/api/auth/signup',
      { origin: t.origin, 'content-type': type },
      signupJson(),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE', key: 'default' });
    expect(await countUsers()).toBe(before);
  });

  it('answers a body without a content type with 415', async () => {
    const before = await countUsers();
    const res = await raw('POST', '/api/auth/signup', { origin: t.origin }, signupJson());
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', key: 'default' });
    expect(await countUsers()).toBe(before);
  });

  it('answers a body over the size limit with 413 { error, code }', async () => {
    const res = await raw(
      'POST',
      '/api/auth/signup',
      { origin: t.origin, ...json },
      JSON.stringify({ email: 'big@test.example', password: 'x'.repeat(2 * 1024 * 1024), fullName: 'B' }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE', key: 'default' });
  });

  it('answers JSON with a prototype-pollution key with 400 and no harm', async () => {
    const res = await raw(
      'POST',
      '/api/auth/signup',
      { origin: t.origin, ...json },
      '{"__proto__": {"isAdmin": true}, "email": "p@test.example", "password": "proto-password-1", "fullName": "P"}',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('values the database cannot hold', () => {
  it('answers a NUL character in a stored field with 400 and writes nothing', async () => {
    const before = await countUsers();
    const res = await raw(
      'POST',
      '/api/auth/signup',
      { origin: t.origin, ...json },
      JSON.stringify({ email: uniqueEmail(), password: 'nul-password-1', fullName: 'A\u0000B' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: expect.any(String),
      code: 'VALIDATION_ERROR',
      key: 'valueNotStorable',
    });
    expect(await countUsers()).toBe(before);
  });

  it('answers a NUL character in a search without a 500 (PostgreSQL refuses it; PGlite finds nothing)', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    for (const list of ['users', 'audit', 'executions', 'credits', 'workflows']) {
      const res = await admin.get(`/api/admin/${list}?q=%00`);
      expect([200, 400], list).toContain(res.statusCode);
    }
  });
});

describe('security headers', () => {
  const documents = ['/', '/workflows', '/admin/users', '/healthz'];
  const apiAnswers = ['/api/auth/me', '/api/nowhere', '/api/workflows/public'];
  const paths = [...documents, ...apiAnswers];

  it.each(documents)('%s carries the document CSP, nosniff and a referrer policy', async (path) => {
    const res = await raw('GET', path, {});
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    // The SPA's scripts come only from our own origin: no inline or eval'd script can run.
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // No HSTS over plain http: it would be ignored, and pinning localhost to https breaks development.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each(apiAnswers)(
    '%s, an API answer, can run nothing, be framed by no one, nor be sniffed',
    async (path) => {
      const res = await raw('GET', path, {});
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
      // Headers that act only on documents are left off.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    },
  );

  it('gives an API path spelled another way the document headers, which also forbid framing', async () => {
    const res = await raw('GET', '/%61pi/auth/me', {});
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the SPA with those headers', async () => {
    const res = await raw('GET', '/workflows', { accept: 'text/html' });
    if (res.statusCode === 200) expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('over plain http asks no page to upgrade its requests, the API docs included', async () => {
    for (const path of [...documents, '/api/docs', '/api/docs/static/index.html']) {
      const res = await raw('GET', path, {});
      const csp = String(res.headers['content-security-policy']);
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security'], path).toBeUndefined();
    }
  });

  it('over https adds HSTS for a year and upgrades insecure requests', async () => {
    const secure = await buildTestApp({ PUBLIC_URL: 'https://flujo.example' });
    try {
      for (const path of [...paths, '/api/docs/static/index.html']) {
        const res = await secure.app.inject({ method: 'GET', url: path });
        expect(res.headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
        if (documents.includes(path) || path.startsWith('/api/docs')) {
          expect(String(res.headers['content-security-policy']), path).toContain('upgrade-insecure-requests');
        }
      }
      // The https origin is the only one accepted there.
      const res = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: { origin: 'http://flujo.example' },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await secure.close();
    }
  });
});
