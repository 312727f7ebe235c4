import { createHmac, createPrivateKey } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Configuration, errors as OidcErrors, JWK } from 'oidc-provider';
import { userProfiles } from '#server/db/schema.js';
import { fileLinkSecret } from '#server/lib/file-link-secret.js';
import type { AppDeps } from '#server/types.js';
import { databaseAdapter } from './adapter.js';

/**
 * What a grant lets an app do, all approved together on the consent screen: start workflows and spend credits,
 * read its runs and their results, read the balance. A token acts as its owner's personal API key does, within
 * the grant's monthly credit limit (decision 162).
 */
export const OAUTH_SCOPES = ['workflows:run', 'runs:read', 'balance:read'] as const;

/** Where the authorization server's endpoints live (its issuer is PUBLIC_URL itself, decision 161). */
export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/logout',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
  introspection: '/oauth/introspect',
  challenge: '/oauth/challenge',
} as const;

/** Where the person approves or denies an app's request: a page of the web app (src/web/pages/OAuthConsent). */
const CONSENT_PATH = '/connect';

/**
 * The resources a token may be bound to (RFC 8707): the MCP server, the public API, and the public API with the
 * management API under it (/api/v1/admin), which only an administrator may grant (decision 181).
 */
export function oauthResources(publicUrl: string): { mcp: string; api: string; admin: string } {
  return { mcp: `${publicUrl}/mcp`, api: `${publicUrl}/api/v1`, admin: `${publicUrl}/api/v1/admin` };
}

const DAY = 24 * 60 * 60;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 9700 and the MCP specification: a redirect URI over http is only for an app on the person's own machine.
 * oidc-provider lets a web client register any http URI for the code flow, so registration is refused here;
 * native custom schemes (cursor://, vscode://) stay allowed.
 */
function checkRedirectUris(errors: typeof OidcErrors, uris: unknown): void {
  for (const uri of Array.isArray(uris) ? uris : []) {
    let url: URL;
    try {
      url = new URL(String(uri));
    } catch {
      continue; // oidc-provider refuses it with its own error
    }
    if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
      throw new errors.InvalidRedirectUri('redirect_uris using http are only allowed on loopback addresses');
    }
  }
}

/** PKCS #8's wrapping of a raw Ed25519 private key (RFC 8410): the fixed prefix, then the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 signing key whose seed is `seed`, as a JWK. */
function signingKey(seed: Buffer): JWK {
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { ...key.export({ format: 'jwk' }), use: 'sig', kid: 'flujo-oauth-1' };
}

/**
 * The OAuth 2.1 authorization server (oidc-provider, certified, decision 161): authorization code with PKCE S256
 * only, dynamic registration of public clients, resource indicators binding opaque access tokens to /mcp or
 * /api/v1, rotating refresh tokens (a reused one revokes the grant), revocation. Sign-in and consent are Flujo's
 * own page and session; the provider's own session only carries the interaction.
 */
async function buildOAuthProvider(deps: AppDeps): Promise<Provider> {
  const { default: Provider, errors } = await import('oidc-provider');
  const { publicUrl } = deps.config;
  const resources = oauthResources(publicUrl);
  // The provider's cookie and signing keys are derived from a secret every instance shares already, so that no
  // other has to be configured and every instance signs alike.
  const secret = await fileLinkSecret(deps.config);
  const derived = (purpose: string) => createHmac('sha256', secret).update(purpose).digest();
  const cookieKey = derived('oauth-cookies').toString('base64url');
  const configuration: Configuration = {
    adapter: databaseAdapter(deps.db, deps.now),
    clients: [],
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'Ed25519',
    },
    cookies: { keys: [cookieKey] },
    // Only an app asking for `openid` gets an ID token; it is signed with this key (Ed25519).
    jwks: { keys: [signingKey(derived('oauth-signing'))] },
    enabledJWA: { idTokenSigningAlgValues: ['Ed25519'] },
    responseTypes: ['code'],
    // The resource scopes (OAUTH_SCOPES) are the resource servers' (getResourceServerInfo), not OpenID ones.
    scopes: ['openid', 'offline_access'],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    routes: OAUTH_PATHS,
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // An app revokes only its own tokens (RFC 7009 2.1).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Asked for several (RFC 8707) and none named at the token endpoint: /mcp when among them.
        defaultResource: (_ctx, _client, oneOf) =>
          !oneOf || oneOf.includes(resources.mcp) ? resources.mcp : (oneOf[0] ?? resources.mcp),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!Object.values(resources).includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope: OAUTH_SCOPES.join(' '),
            audience: indicator,
            accessTokenTTL: deps.config.oauth.accessTokenTtl,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (_ctx, key, value) => {
        if (key === 'redirect_uris') checkRedirectUris(errors, value);
      },
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    // Every authorisation asks the person again (each approval is a grant of its own, with its own limit):
    // only the grant just approved on the consent page is loaded, never one remembered in the session.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: 60 * 60,
      Grant: 365 * DAY,
      RefreshToken: 30 * DAY,
      AccessToken: deps.config.oauth.accessTokenTtl,
    },
    findAccount: async (_ctx, sub) => {
      const [profile] = await deps.db
        .select({ id: userProfiles.id, status: userProfiles.accountStatus })
        .from(userProfiles)
        .where(eq(userProfiles.id, sub));
      if (!profile || profile.status !== 'active') return undefined;
      return { accountId: profile.id, claims: () => ({ sub: profile.id }) };
    },
  };
  const provider = new Provider(publicUrl, configuration);
  // Behind a named proxy, the provider believes its X-Forwarded-Proto as Fastify does.
  provider.proxy = deps.config.trustProxy !== false;
  return provider;
}

/**
 * The authorization server, built on its first use: oidc-provider (with Koa under it) is about a sixth of a server
 * start's CPU, and most starts never answer an OAuth request (decision 195). A failed build is tried again by the
 * next request.
 */
export function oauthProviderOnFirstUse(deps: AppDeps): () => Promise<Provider> {
  let building: Promise<Provider> | undefined;
  return () =>
    (building ??= buildOAuthProvider(deps).catch((error: unknown) => {
      building = undefined;
      throw error;
    }));
}
