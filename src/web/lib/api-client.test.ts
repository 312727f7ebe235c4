import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api-client';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** A fake server answering every call with `answer`; what the client sent is kept in the list returned. */
function serve(answer: () => Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({
        url,
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        credentials: init.credentials,
      });
      return answer();
    }),
  );
  return sent;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

afterEach(() => vi.unstubAllGlobals());

describe('the typed client', () => {
  it('fills the path parameters (encoded), leaves empty query values out and sends the cookie', async () => {
    const sent = serve(() => json(200, { items: [] }));
    await api.get('/api/workflows/{id}/reviews', { path: { id: 'a/b c' }, query: { limit: 5 } });
    expect(sent[0]).toMatchObject({
      url: '/api/workflows/a%2Fb%20c/reviews?limit=5',
      method: 'GET',
      credentials: 'include',
      headers: { accept: 'application/json' },
    });
  });

  it('sends a JSON body, and `{}` for a POST that takes none', async () => {
    const sent = serve(() => json(200, { ok: true }));
    await api.post('/api/account/email', { body: { newEmail: 'new@example.com', password: 'secret-pass' } });
    await api.post('/api/auth/signout');
    expect(sent.map((s) => [s.method, s.url, s.body, s.headers['content-type']])).toEqual([
      [
        'POST',
        '/api/account/email',
        { newEmail: 'new@example.com', password: 'secret-pass' },
        'application/json',
      ],
      ['POST', '/api/auth/signout', {}, 'application/json'],
    ]);
  });

  it('reads a page and its total from X-Total-Count, or counts the rows without it', async () => {
    serve(() => json(200, [{ id: 'a' }, { id: 'b' }], { 'x-total-count': '42' }));
    expect(await api.page('/api/admin/users', { query: { q: 'ana', limit: 2 } })).toMatchObject({
      items: [{ id: 'a' }, { id: 'b' }],
      total: 42,
    });
    serve(() => json(200, [{ id: 'a' }]));
    expect((await api.page('/api/admin/users')).total).toBe(1);
  });

  it('throws the code, the case of the text and its values for an error body', async () => {
    const body = {
      error: 'Una cuenta puede tener como máximo 20 claves',
      code: 'CONFLICT',
      key: 'tooManyApiKeys',
      params: { max: 20 },
    };
    serve(() => json(409, body));
    const err = await api.post('/api/account/api-keys', { body: { name: 'ci' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      key: 'tooManyApiKeys',
      params: { max: 20 },
      message: body.error,
    });
  });

  it("says 'Request failed' for a body that is not JSON and 'HTTP status' for one without a text", async () => {
    serve(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    expect(await api.get('/api/auth/me').catch((e: unknown) => e)).toMatchObject({
      message: 'Request failed',
      status: 502,
      code: undefined,
      key: undefined,
    });
    serve(() => json(418, {}));
    expect(await api.get('/api/auth/me').catch((e: unknown) => e)).toMatchObject({ message: 'HTTP 418' });
  });
});
