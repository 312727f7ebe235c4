import { createHash, randomBytes } from 'node:crypto';
import type { TestClient } from '#server/test/client.js';
import type { TestApp } from '#server/test/harness.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';

/** The cookies a response sets, as one Cookie header with the ones already held. */
function withCookies(held: string, setCookie: string | string[] | undefined): string {
  const jar = new Map(held ? held.split('; ').map((c) => c.split('=', 2) as [string, string]) : []);
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    jar.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  return [...jar].map(([n, v]) => `${n}=${v}`).join('; ');
}

/**
 * An OAuth access token for `person` (signed in on `client`), bound to `resource`, got the way an app gets one
 * (registration, PKCE, consent, code) but through `inject`, for tests that have no listening app.
 */
export async function oauthAccessToken(t: TestApp, client: TestClient, resource: string): Promise<string> {
  const registered = await t.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Test app', redirect_uris: [REDIRECT] }),
  });
  const { client_id: clientId } = registered.json<{ client_id: string }>();
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  });
  const asked = await t.app.inject({ method: 'GET', url: `/oauth/authorize?${query}` });
  const cookies = withCookies('', asked.headers['set-cookie']);
  if (asked.statusCode !== 303) throw new Error(`authorize: ${asked.statusCode} ${asked.body}`);
  const uid = String(asked.headers.location).split('/').pop()!;
  const approved = await client.post(`/api/oauth/requests/${uid}/approve`, {});
  const resumed = await t.app.inject({
    method: 'GET',
    url: new URL(approved.json<{ redirectTo: string }>().redirectTo, 'http://x').pathname,
    headers: { cookie: cookies },
  });
  if (resumed.statusCode !== 303) throw new Error(`resume: ${resumed.statusCode} ${resumed.body}`);
  const code = new URL(String(resumed.headers.location)).searchParams.get('code')!;
  const tokens = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
    }).toString(),
  });
  if (tokens.statusCode !== 200) throw new Error(`token: ${tokens.statusCode} ${tokens.body}`);
  return tokens.json<{ access_token: string }>().access_token;
}
