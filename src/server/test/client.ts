import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './harness.js';

let counter = 0;

/** A browser-like caller: keeps its session cookie and sends the app's own Origin. */
export class TestClient {
  cookie: string | undefined;
  constructor(private readonly t: TestApp) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({
      method,
      url,
      headers: {
        origin: this.t.origin,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const setCookie = res.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) {
      const pair = first.split(';')[0] ?? '';
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', url, body, headers);
  patch = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('PATCH', url, body, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('PUT', url, body, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);
}

export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@test.example`;
}

/** Signs up a new user and returns its signed-in client and id. */
export async function signUpUser(
  t: TestApp,
  fields: { email?: string; password?: string; fullName?: string } = {},
): Promise<{ client: TestClient; id: string; email: string; password: string }> {
  const client = new TestClient(t);
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? 'correct-horse-battery';
  const res = await client.post('/api/auth/signup', {
    email,
    password,
    fullName: fields.fullName ?? 'Test User',
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return { client, id: (res.json() as { id: string }).id, email: email.toLowerCase(), password };
}

export async function signInAdmin(t: TestApp, email: string, password: string): Promise<TestClient> {
  const client = new TestClient(t);
  const res = await client.post('/api/auth/signin', { email, password });
  if (res.statusCode !== 200) throw new Error(`admin signin failed: ${res.statusCode} ${res.body}`);
  return client;
}

/** A call with an API key alone (no cookie, no Origin): what a script, an agent or the n8n node sends. */
export function keyCall(
  t: TestApp,
  key: string,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  lng = 'en',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      'accept-language': lng,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
