import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TConnectedApp, TOAuthRequest } from '#shared/contract/oauth.js';
import { adminAuditLogs, apiKeys, oauthStore, userProfiles } from '#server/db/schema.js';
import { TestClient } from '#server/test/client.js';
import { deleteExpiredAuthState } from '../auth/service.js';
import {
  addWorkflow,
  balanceOf,
  grantCredits,
  signUpUser,
  startRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';

/*
 * The whole OAuth 2.1 dance an MCP client such as Claude's connector does, with a real OAuth client library
 * (oauth4webapi) against the app listening on a port: discovery from the 401, dynamic registration, the
 * authorisation request with PKCE, sign-in and consent (the consent page's own calls, with the session
 * cookie), the code for tokens, MCP through the SDK client, refresh, the grant's limit, revocation.
 */

let w: RunsWorld;
beforeAll(async () => {
  w = await startRunsWorld({ DEMO_WORKFLOWS: 'true' });
}, 60_000);
afterAll(async () => w?.close());

const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT = 'http://127.0.0.1:33418/callback';

/** The browser's cookies for the app, kept across the provider's redirects. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/** A browser GET that does not follow redirects, keeping cookies. */
async function browse(jar: CookieJar, url: string): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.take(res);
  return res;
}

interface Discovered {
  as: oauth.AuthorizationServer;
  resource: string;
}

/** From the 401 of /mcp to the authorization server's metadata, as the MCP specification says. */
async function discover(): Promise<Discovered> {
  const refused = await fetch(`${w.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  expect(refused.status).toBe(401);
  const challenge = refused.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(metadataUrl).toBe(`${w.baseUrl}/.well-known/oauth-protected-resource/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(
    new URL(`${w.baseUrl}/mcp`),
    await oauth.resourceDiscoveryRequest(new URL(`${w.baseUrl}/mcp`), insecure),
  );
  const issuer = new URL(rs.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  return { as, resource: rs.resource };
}

async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.Client> = {}) {
  return oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'Claude (test)',
        client_uri: 'https://claude.example',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...metadata,
      },
      insecure,
    ),
  );
}

interface Authorised {
  jar: CookieJar;
  uid: string;
  verifier: string;
  state: string;
}

/** The authorisation request with PKCE S256: the browser lands on the consent page. */
async function authorize(
  d: Discovered,
  client: oauth.Client,
  extra: Record<string, string> = {},
  resources: string[] = [d.resource],
): Promise<Authorised> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(d.as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'workflows:run runs:read balance:read offline_access',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  }).toString();
  for (const resource of resources) url.searchParams.append('resource', resource);
  const jar = new CookieJar();
  const res = await browse(jar, url.href);
  expect(res.status).toBe(303);
  const consent = new URL(res.headers.get('location')!, w.baseUrl);
  expect(consent.pathname).toMatch(/^\/connect\/[\w-]+$/);
  return { jar, uid: consent.pathname.split('/').pop()!, verifier, state };
}

/** The person approves (or denies) on the consent page; the browser follows back to the app. */
async function consent(
  person: TestClient,
  a: Authorised,
  choice: { monthlyCreditLimit?: number } | 'deny',
): Promise<URL> {
  const res =
    choice === 'deny'
      ? await person.post(`/api/oauth/requests/${a.uid}/deny`)
      : await person.post(`/api/oauth/requests/${a.uid}/approve`, choice);
  expect(res.statusCode).toBe(200);
  const back = await browse(a.jar, new URL(res.json<{ redirectTo: string }>().redirectTo, w.baseUrl).href);
  expect(back.status).toBe(303);
  return new URL(back.headers.get('location')!, w.baseUrl);
}

async function exchange(d: Discovered, client: oauth.Client, a: Authorised, callback: URL) {
  const params = oauth.validateAuthResponse(d.as, client, callback, a.state);
  return oauth.authorizationCodeGrantRequest(
    d.as,
    client,
    oauth.None(),
    params,
    REDIRECT,
    a.verifier,
    insecure,
  );
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${w.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const texts = (result: CallToolResult) =>
  result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');

describe('OAuth 2.1 for /mcp', () => {
  it('does the whole dance: discovery, registration, PKCE, consent with a limit, MCP, refresh, limit, revoke', async () => {
    await addWorkflow(w, {
      name: { es: 'Danza', en: 'Dance probe' },
      creditsPerExecution: 1,
    });
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } }));
    const person = await signUpUser(w.t);
    await grantCredits(w, person.id, 10);
    const start = await balanceOf(w, person.id);
    const d = await discover();
    expect(d.as.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.as.registration_endpoint).toBe(`${w.baseUrl}/oauth/register`);
    const client = await register(d.as);

    const a = await authorize(d, client);
    const shown = await person.client.get(`/api/oauth/requests/${a.uid}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<TOAuthRequest>()).toMatchObject({
      client: { name: 'Claude (test)', uri: 'https://claude.example' },
      resources: [`${w.baseUrl}/mcp`],
    });
    const callback = await consent(person.client, a, { monthlyCreditLimit: 3 });
    const tokens = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    // Stored hashed: neither token appears in the store.
    const stored = JSON.stringify(await w.t.database.db.select().from(oauthStore));
    expect(stored).not.toContain(tokens.access_token);
    expect(stored).not.toContain(tokens.refresh_token!);

    const mcp = await mcpClient(tokens.access_token);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('dance_probe');
      const run = (await mcp.callTool({ name: 'dance_probe', arguments: { q1: 'Ana' } })) as CallToolResult;
      expect(run.isError).toBeFalsy();
      expect(await balanceOf(w, person.id)).toBe(start - 1);
    } finally {
      await mcp.close();
    }

    const refreshed = await oauth.processRefreshTokenResponse(
      d.as,
      client,
      await oauth.refreshTokenGrantRequest(d.as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const again = await mcpClient(refreshed.access_token);
    try {
      for (const expected of [false, false, true]) {
        const run = (await again.callTool({
          name: 'dance_probe',
          arguments: { q1: 'Ana' },
        })) as CallToolResult;
        expect(Boolean(run.isError)).toBe(expected);
        if (expected) expect(texts(run)).toMatch(/limit/i);
      }
    } finally {
      await again.close();
    }
    // Three runs charged, one credit each; the fourth refused by the grant's limit charged nothing.
    expect(await balanceOf(w, person.id)).toBe(start - 3);
    const [credential] = await w.t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, person.id));
    expect(credential).toMatchObject({
      kind: 'oauth',
      name: 'Claude (test)',
      monthlyCreditLimit: 3,
      spentCredits: 3,
    });

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(d.as, client, oauth.None(), refreshed.refresh_token!, insecure),
    );
    const after = await fetch(`${w.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${refreshed.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(401);
    expect(await w.t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, person.id))).toEqual([]);
  }, 60_000);
});

/** A POST to /mcp with a bearer token, as an MCP client sends its first message. */
function mcpPing(token: string): Promise<Response> {
  return fetch(`${w.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

const meWith = (token: string) =>
  fetch(`${w.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });

/** A token endpoint refusal: its status and RFC 6749 error code. */
async function tokenError(res: Response): Promise<{ status: number; error: string }> {
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

/** Signs a new person up, registers a client, authorises it and approves: a fresh grant. */
async function approved(resources?: string[]) {
  const person = await signUpUser(w.t);
  const d = await discover();
  const client = await register(d.as);
  const a = await authorize(d, client, {}, resources ?? [d.resource]);
  const callback = await consent(person.client, a, {});
  return { person, d, client, a, callback };
}

describe('OAuth 2.1: bad input is refused as the RFCs say, granting nothing', () => {
  it('refuses a wrong PKCE verifier, then a reused code, and the reuse revokes what the code gave', async () => {
    const { d, client, a, callback } = await approved();
    const params = oauth.validateAuthResponse(d.as, client, callback, a.state);
    const wrong = await oauth.authorizationCodeGrantRequest(
      d.as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    expect(await tokenError(wrong)).toEqual({ status: 400, error: 'invalid_grant' });

    // A second approval, whose code is used once rightly, then again.
    const other = await approved();
    const otherParams = oauth.validateAuthResponse(other.d.as, other.client, other.callback, other.a.state);
    const exchangeOnce = () =>
      oauth.authorizationCodeGrantRequest(
        other.d.as,
        other.client,
        oauth.None(),
        otherParams,
        REDIRECT,
        other.a.verifier,
        insecure,
      );
    const tokens = await oauth.processAuthorizationCodeResponse(
      other.d.as,
      other.client,
      await exchangeOnce(),
    );
    expect((await mcpPing(tokens.access_token)).status).toBe(200);
    expect(await tokenError(await exchangeOnce())).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
  }, 60_000);

  it('refuses an unknown client and a redirect URI it did not register without redirecting', async () => {
    const d = await discover();
    const client = await register(d.as);
    for (const params of [
      { client_id: 'no-such-client', redirect_uri: REDIRECT },
      { client_id: client.client_id, redirect_uri: 'http://127.0.0.1:33418/other' },
      { client_id: client.client_id, redirect_uri: `${REDIRECT}/` },
    ]) {
      const url = new URL(d.as.authorization_endpoint!);
      url.search = new URLSearchParams({
        ...params,
        response_type: 'code',
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
        state: 'x',
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('refuses a request without PKCE, or with plain PKCE, and a resource that is not Flujo’s', async () => {
    const d = await discover();
    const client = await register(d.as);
    const ask = async (extra: Record<string, string>) => {
      const url = new URL(d.as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 's',
        ...extra,
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!).searchParams;
    };
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    expect((await ask({})).get('error')).toBe('invalid_request');
    expect((await ask({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })).get('error')).toBe(
      'invalid_request',
    );
    const foreign = await ask({
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: 'https://evil.example/mcp',
    });
    expect(foreign.get('error')).toBe('invalid_target');
  });

  it('refuses to register a confidential client or an http redirect URI off loopback', async () => {
    const d = await discover();
    const refusal = async (metadata: Partial<oauth.Client>) => {
      const res = await oauth.dynamicClientRegistrationRequest(
        d.as,
        { redirect_uris: [REDIRECT], ...metadata },
        insecure,
      );
      return { status: res.status, error: ((await res.json()) as { error: string }).error };
    };
    expect(await refusal({ redirect_uris: ['http://evil.example/callback'] })).toEqual({
      status: 400,
      error: 'invalid_redirect_uri',
    });
    expect(await refusal({ token_endpoint_auth_method: 'client_secret_basic' })).toEqual({
      status: 400,
      error: 'invalid_client_metadata',
    });
    // https anywhere, and http on loopback, are fine.
    await register(d.as, { redirect_uris: ['https://claude.ai/api/mcp/auth_callback', REDIRECT] });
  });

  it('sends access_denied when the person denies, and grants nothing', async () => {
    const person = await signUpUser(w.t);
    const d = await discover();
    const client = await register(d.as);
    const a = await authorize(d, client);
    const callback = await consent(person.client, a, 'deny');
    expect(() => oauth.validateAuthResponse(d.as, client, callback, a.state)).toThrow(/error/);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(await w.t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, person.id))).toEqual([]);
  });

  it('asks for the session on the consent calls and refuses a request that is gone or answered', async () => {
    const d = await discover();
    const client = await register(d.as);
    const a = await authorize(d, client);
    const anonymous = new TestClient(w.t);
    expect((await anonymous.get(`/api/oauth/requests/${a.uid}`)).statusCode).toBe(401);
    expect((await anonymous.post(`/api/oauth/requests/${a.uid}/approve`, {})).statusCode).toBe(401);
    const person = await signUpUser(w.t);
    const unknown = await person.client.get('/api/oauth/requests/nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toMatch(/start again/);
    const spanish = await person.client.get('/api/oauth/requests/nope', { 'accept-language': 'es' });
    expect(spanish.json<{ error: string }>().error).toMatch(/empieza de nuevo/);
    const bad = await person.client.post(`/api/oauth/requests/${a.uid}/approve`, { monthlyCreditLimit: 0 });
    expect(bad.statusCode).toBe(400);
    await consent(person.client, a, { monthlyCreditLimit: 5 });
    expect((await person.client.post(`/api/oauth/requests/${a.uid}/approve`, {})).statusCode).toBe(404);
    expect(await w.t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, person.id))).toHaveLength(1);
  });

  it('binds a token to its resource, refuses it expired or revoked, and a reused refresh token revokes the grant', async () => {
    const { d, client, a, callback } = await approved([`${w.baseUrl}/mcp`, `${w.baseUrl}/api/v1`]);
    const tokens = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    // Issued for /mcp: the public API refuses it, as it would a token for another server.
    expect((await mcpPing(tokens.access_token)).status).toBe(200);
    expect((await meWith(tokens.access_token)).status).toBe(401);

    // A token for the public API, by refresh with the resource named (RFC 8707).
    const forApi = await oauth.processRefreshTokenResponse(
      d.as,
      client,
      await oauth.refreshTokenGrantRequest(d.as, client, oauth.None(), tokens.refresh_token!, {
        ...insecure,
        additionalParameters: { resource: `${w.baseUrl}/api/v1` },
      }),
    );
    expect((await meWith(forApi.access_token)).status).toBe(200);
    expect((await mcpPing(forApi.access_token)).status).toBe(401);

    // Expired: its time is up (moved back in the store, as a clock would).
    await w.t.database.db
      .update(oauthStore)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthStore.model, 'AccessToken'));
    expect((await meWith(forApi.access_token)).status).toBe(401);

    // The hourly clean-up removes what has expired, and nothing else.
    const live = await w.t.database.db.select().from(oauthStore).where(eq(oauthStore.model, 'RefreshToken'));
    await deleteExpiredAuthState(w.t.database.db, new Date());
    expect(
      await w.t.database.db.select().from(oauthStore).where(eq(oauthStore.model, 'AccessToken')),
    ).toEqual([]);
    expect(
      await w.t.database.db.select().from(oauthStore).where(eq(oauthStore.model, 'RefreshToken')),
    ).toHaveLength(live.length);

    // The first refresh token was rotated away: presenting it again revokes the whole grant.
    const reused = await oauth.refreshTokenGrantRequest(
      d.as,
      client,
      oauth.None(),
      tokens.refresh_token!,
      insecure,
    );
    expect(await tokenError(reused)).toEqual({ status: 400, error: 'invalid_grant' });
    const rotated = await oauth.refreshTokenGrantRequest(
      d.as,
      client,
      oauth.None(),
      forApi.refresh_token!,
      insecure,
    );
    expect(await tokenError(rotated)).toEqual({ status: 400, error: 'invalid_grant' });
  }, 60_000);

  it('revokes an access token at the revocation endpoint, and every grant with a password change', async () => {
    const first = await approved();
    const tokens = await oauth.processAuthorizationCodeResponse(
      first.d.as,
      first.client,
      await exchange(first.d, first.client, first.a, first.callback),
    );
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(first.d.as, first.client, oauth.None(), tokens.access_token, insecure),
    );
    expect((await mcpPing(tokens.access_token)).status).toBe(401);

    const d = await discover();
    const client = await register(d.as);
    const a = await authorize(d, client);
    const callback = await consent(first.person.client, a, {});
    const second = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    expect((await mcpPing(second.access_token)).status).toBe(200);
    const changed = await first.person.client.post('/api/account/password', {
      currentPassword: first.person.password,
      newPassword: 'another-password-9',
    });
    expect(changed.statusCode).toBe(200);
    expect((await mcpPing(second.access_token)).status).toBe(401);
    const refresh = await oauth.refreshTokenGrantRequest(
      d.as,
      client,
      oauth.None(),
      second.refresh_token!,
      insecure,
    );
    expect(await tokenError(refresh)).toEqual({ status: 400, error: 'invalid_grant' });
  }, 60_000);
});

/*
 * The fuzz test (src/server/test/fuzz.test.ts) draws its requests from the OpenAPI document, where the OAuth
 * endpoints are not (their contract is the RFCs'): these are fuzzed here, with what a client may send them.
 */
describe('OAuth 2.1: fuzzing the token and registration endpoints', () => {
  const anyValue = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'S256', 'none', ''),
    fc.webUrl(),
  );
  const field = fc.constantFrom(
    'grant_type',
    'code',
    'code_verifier',
    'redirect_uri',
    'client_id',
    'refresh_token',
    'resource',
    'scope',
    'client_secret',
  );

  it('answers any token request with an RFC 6749 error, never a 5xx, issuing nothing', async () => {
    const tokensBefore = await w.t.database.db
      .select()
      .from(oauthStore)
      .where(eq(oauthStore.model, 'AccessToken'));
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(field, anyValue, { maxKeys: 6 }),
        fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'),
        async (params, contentType) => {
          const res = await w.t.app.inject({
            method: 'POST',
            url: '/oauth/token',
            headers: { 'content-type': contentType },
            payload:
              contentType === 'application/json'
                ? JSON.stringify(params)
                : new URLSearchParams(params).toString(),
          });
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.json()).toEqual(expect.objectContaining({ error: expect.any(String) }));
        },
      ),
      { numRuns: 100 },
    );
    const tokensAfter = await w.t.database.db
      .select()
      .from(oauthStore)
      .where(eq(oauthStore.model, 'AccessToken'));
    expect(tokensAfter).toHaveLength(tokensBefore.length);
  });

  it('answers any registration with a client or an RFC 7591 error, never a 5xx', async () => {
    const metadata = fc.record(
      {
        redirect_uris: fc.oneof(
          fc.array(fc.oneof(fc.webUrl(), fc.string({ maxLength: 40 })), { maxLength: 3 }),
          anyValue,
        ),
        client_name: fc.oneof(fc.string({ maxLength: 200 }), fc.integer()),
        client_uri: anyValue,
        logo_uri: anyValue,
        token_endpoint_auth_method: anyValue,
        grant_types: fc.array(anyValue, { maxLength: 3 }),
        response_types: fc.array(fc.constantFrom('code', 'token', 'id_token', ''), { maxLength: 2 }),
        application_type: fc.constantFrom('web', 'native', 'other'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(metadata, async (body) => {
        const res = await w.t.app.inject({
          method: 'POST',
          url: '/oauth/register',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode).toBeLessThan(500);
        const answer = res.json<{ error?: string; client_id?: string; redirect_uris?: string[] }>();
        if (res.statusCode === 201) {
          // Whatever was accepted keeps http to loopback.
          for (const uri of answer.redirect_uris ?? []) {
            const url = new URL(uri);
            if (url.protocol === 'http:') expect(['127.0.0.1', '[::1]', 'localhost']).toContain(url.hostname);
          }
        } else {
          expect(res.statusCode).toBe(400);
          expect(answer.error).toEqual(expect.any(String));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('Connected apps in the account settings', () => {
  it('lists the person’s apps, edits their limit and disconnects them at once; others’ are not found', async () => {
    const { person, d, client, a, callback } = await approved();
    const tokens = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    expect((await mcpPing(tokens.access_token)).status).toBe(200);
    const listed = await person.client.get('/api/account/connected-apps');
    expect(listed.statusCode).toBe(200);
    const [app] = listed.json<{ apps: TConnectedApp[] }>().apps;
    expect(app).toMatchObject({
      name: 'Claude (test)',
      clientId: client.client_id,
      monthlyCreditLimit: null,
      spentThisMonth: 0,
    });
    // API keys and connected apps are listed apart.
    expect((await person.client.get('/api/account/api-keys')).json<{ keys: unknown[] }>().keys).toEqual([]);

    const limited = await person.client.patch(`/api/account/connected-apps/${app!.id}`, {
      monthlyCreditLimit: 7,
    });
    expect(limited.json<TConnectedApp>().monthlyCreditLimit).toBe(7);
    const bad = await person.client.patch(`/api/account/connected-apps/${app!.id}`, {
      monthlyCreditLimit: 0,
    });
    expect(bad.statusCode).toBe(400);

    const stranger = await signUpUser(w.t);
    expect(
      (await stranger.client.patch(`/api/account/connected-apps/${app!.id}`, { monthlyCreditLimit: 1 }))
        .statusCode,
    ).toBe(404);
    const foreign = await stranger.client.delete(`/api/account/connected-apps/${app!.id}`, {
      'accept-language': 'es',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ error: string }>().error).toBe('Aplicación conectada no encontrada');
    expect((await mcpPing(tokens.access_token)).status).toBe(200);

    expect((await person.client.delete(`/api/account/connected-apps/${app!.id}`)).statusCode).toBe(200);
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
    const refresh = await oauth.refreshTokenGrantRequest(
      d.as,
      client,
      oauth.None(),
      tokens.refresh_token!,
      insecure,
    );
    expect(await tokenError(refresh)).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await person.client.get('/api/account/connected-apps')).json<{ apps: unknown[] }>().apps).toEqual(
      [],
    );
  }, 60_000);
});

describe('Connected apps for admins', () => {
  it('lets an admin see and revoke a user’s app, audited; a non-admin is refused', async () => {
    const { person, d, client, a, callback } = await approved();
    const tokens = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    expect((await person.client.get(`/api/admin/users/${person.id}/connected-apps`)).statusCode).toBe(403);
    const listed = await w.admin.get(`/api/admin/users/${person.id}/connected-apps`);
    const [app] = listed.json<{ apps: TConnectedApp[] }>().apps;
    expect(app).toMatchObject({ name: 'Claude (test)' });
    expect(
      (await person.client.delete(`/api/admin/users/${person.id}/connected-apps/${app!.id}`)).statusCode,
    ).toBe(403);
    expect((await mcpPing(tokens.access_token)).status).toBe(200);

    const revoked = await w.admin.delete(`/api/admin/users/${person.id}/connected-apps/${app!.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
    const [audit] = await w.t.database.db
      .select()
      .from(adminAuditLogs)
      .where(
        and(eq(adminAuditLogs.targetId, person.id), eq(adminAuditLogs.actionType, 'oauth_grant_revoked')),
      );
    expect(audit?.details).toEqual({ app: 'Claude (test)', clientId: client.client_id });
    expect((await w.admin.delete(`/api/admin/users/${person.id}/connected-apps/${app!.id}`)).statusCode).toBe(
      404,
    );
  }, 60_000);
});

describe('OAuth 2.1 for the management API (n8n’s Flujo credential)', () => {
  it('lets only an administrator grant it; its token manages workflows while its owner stays an administrator', async () => {
    const db = w.t.database.db;
    const d = await discover();
    const adminResource = `${w.baseUrl}/api/v1/admin`;
    // As n8n registers and asks: its own name, the discovery document's scopes, the resource in the query.
    // Asking for openid, it is sent an ID token too, which Flujo signs with Ed25519.
    const client: oauth.Client = {
      ...(await register(d.as, {
        client_name: 'n8n',
        client_uri: 'https://n8n.io/',
        scope: 'openid offline_access',
      })),
      id_token_signed_response_alg: 'Ed25519',
    };
    const asN8n = (resource: string) => authorize(d, client, { scope: 'openid offline_access' }, [resource]);
    const get = (token: string, path: string) =>
      fetch(`${w.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

    // Someone who is not an administrator sees what is asked, and cannot grant it: nothing is granted.
    const person = await signUpUser(w.t);
    const asked = await asN8n(adminResource);
    const shown = await person.client.get(`/api/oauth/requests/${asked.uid}`);
    expect(shown.json<TOAuthRequest>()).toMatchObject({
      client: { name: 'n8n' },
      resources: [adminResource],
      admin: true,
    });
    const refusal = await person.client.post(
      `/api/oauth/requests/${asked.uid}/approve`,
      {},
      {
        'accept-language': 'es',
      },
    );
    expect(refusal.statusCode).toBe(403);
    expect(refusal.json<{ error: string }>().error).toBe(
      'Solo un administrador puede dejar que una aplicación gestione Flujo',
    );
    expect(await db.select().from(apiKeys).where(eq(apiKeys.userId, person.id))).toEqual([]);

    // An administrator grants it: the token opens the management API and the rest of the public API.
    const owner = await signUpUser(w.t);
    await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.id, owner.id));
    const a = await asN8n(adminResource);
    expect((await owner.client.get(`/api/oauth/requests/${a.uid}`)).json<TOAuthRequest>().admin).toBe(true);
    const callback = await consent(owner.client, a, {});
    const tokens = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, a, callback),
    );
    expect((await get(tokens.access_token, '/api/v1/admin/workflows?limit=1')).status).toBe(200);
    expect((await meWith(tokens.access_token)).status).toBe(200);
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
    const [credential] = await db.select().from(apiKeys).where(eq(apiKeys.userId, owner.id));
    expect(credential).toMatchObject({ kind: 'oauth', name: 'n8n', scope: 'admin' });

    // Refreshed, as n8n does when a call answers 401: still the management API's.
    const refreshed = await oauth.processRefreshTokenResponse(
      d.as,
      client,
      await oauth.refreshTokenGrantRequest(d.as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect((await get(refreshed.access_token, '/api/v1/admin/workflows?limit=1')).status).toBe(200);

    // The same administrator's grant of the public API alone does not manage.
    const plain = await asN8n(`${w.baseUrl}/api/v1`);
    expect((await owner.client.get(`/api/oauth/requests/${plain.uid}`)).json<TOAuthRequest>().admin).toBe(
      false,
    );
    const user = await oauth.processAuthorizationCodeResponse(
      d.as,
      client,
      await exchange(d, client, plain, await consent(owner.client, plain, {})),
    );
    expect((await meWith(user.access_token)).status).toBe(200);
    expect((await get(user.access_token, '/api/v1/admin/workflows?limit=1')).status).toBe(403);

    // Demoted, the owner's token keeps their own API and manages no more, at once.
    await db.update(userProfiles).set({ isAdmin: false }).where(eq(userProfiles.id, owner.id));
    expect((await get(refreshed.access_token, '/api/v1/admin/workflows?limit=1')).status).toBe(403);
    expect((await meWith(refreshed.access_token)).status).toBe(200);
  }, 60_000);
});
