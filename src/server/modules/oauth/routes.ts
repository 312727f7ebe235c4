import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { ZIdParams, ZOk } from '#shared/contract/common.js';
import {
  ZConnectedApp,
  ZConnectedAppList,
  ZConnectedAppUpdate,
  ZOAuthConsent,
  ZOAuthRedirect,
  ZOAuthRequest,
} from '#shared/contract/oauth.js';
import { errorAnswers } from '#server/lib/errors.js';
import { hijackReply } from '#server/lib/hijack.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { OAUTH_PATHS, OAUTH_SCOPES, oauthResources } from './provider.js';
import {
  approveInteraction,
  denyInteraction,
  describeInteraction,
  disconnectApp,
  listConnectedApps,
  updateConnectedApp,
} from './service.js';

/** RFC 9728: where a client learns which authorization server issues tokens for a resource. */
export function protectedResourceMetadataUrl(publicUrl: string, resource: 'mcp' | 'api'): string {
  return `${publicUrl}/.well-known/oauth-protected-resource${resource === 'mcp' ? '/mcp' : '/api/v1'}`;
}

const ZProtectedResource = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
  resource_documentation: z.string(),
});

const ZUidParams = z.object({ uid: z.string().min(1).max(100) });

/**
 * The OAuth authorization server (oidc-provider, a Koa app) under /oauth/ and at the discovery documents, the
 * protected-resource metadata of /mcp and /api/v1, and the consent page's calls (session cookie, CSRF-checked
 * like every cookie route).
 */
export async function oauthRoutes(app: App, deps: AppDeps, provider: () => Promise<Provider>): Promise<void> {
  const { publicUrl } = deps.config;
  const resources = oauthResources(publicUrl);
  let callback: ReturnType<Provider['callback']> | undefined;
  // Handed to the provider as it came: it reads its own bodies, cookies and query, and answers by itself. The
  // request's body stays unread in its stream while the provider is built on its first use.
  const handOver = (path?: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    callback ??= (await provider()).callback();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    if (path) raw.url = path;
    raw.originalUrl = raw.url;
    hijackReply(reply);
    void callback(raw, reply.raw);
  };

  await app.register(async (scope) => {
    // The provider reads the body itself: Fastify must leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // Only the endpoints in use are routed, each by name (the provider would answer 404 to the rest anyway).
    const hidden = { schema: { hide: true } };
    scope.get(OAUTH_PATHS.authorization, hidden, (request, reply) => {
      // RFC 6749 3.3: a request that names none of the resource scopes gets the default, every one of them (the
      // consent page shows them); the provider would otherwise end it with access_denied, or issue a token of no
      // scope. Some MCP clients name no scope; n8n names only the discovery document's (openid offline_access).
      const url = new URL(request.raw.url ?? '/', publicUrl);
      const named = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
      if (!named.some((s) => (OAUTH_SCOPES as readonly string[]).includes(s))) {
        url.searchParams.set('scope', [...named, ...OAUTH_SCOPES].join(' '));
      }
      return handOver(`${url.pathname}${url.search}`)(request, reply);
    });
    // Where the consent page sends the browser back: the provider resumes the request and redirects to the app.
    scope.get(`${OAUTH_PATHS.authorization}/:uid`, hidden, handOver());
    scope.post(OAUTH_PATHS.token, hidden, handOver());
    scope.post(OAUTH_PATHS.registration, hidden, handOver());
    scope.post(OAUTH_PATHS.revocation, hidden, handOver());
    scope.get(OAUTH_PATHS.jwks, hidden, handOver());
    scope.get('/.well-known/openid-configuration', hidden, handOver());
    // RFC 8414 metadata is the provider's discovery document, which holds every member it asks for.
    scope.get(
      '/.well-known/oauth-authorization-server',
      hidden,
      handOver('/.well-known/openid-configuration'),
    );
  });

  const metadata = (resource: string) => ({
    resource,
    authorization_servers: [publicUrl],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Flujo',
    resource_documentation: `${publicUrl}/api/docs`,
  });
  const resourceRoute = (url: string, resource: string) =>
    app.get(
      url,
      {
        schema: {
          tags: ['public API'],
          summary: 'OAuth 2.0 Protected Resource Metadata (RFC 9728)',
          response: { 200: ZProtectedResource },
        },
      },
      async () => metadata(resource),
    );
  resourceRoute('/.well-known/oauth-protected-resource', resources.mcp);
  resourceRoute('/.well-known/oauth-protected-resource/mcp', resources.mcp);
  resourceRoute('/.well-known/oauth-protected-resource/api/v1', resources.api);

  app.get(
    '/api/oauth/requests/:uid',
    {
      schema: {
        tags: ['account'],
        summary: 'An app’s pending authorisation request, for the consent page',
        params: ZUidParams,
        response: { 200: ZOAuthRequest, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request) => {
      await requireUser(request);
      return describeInteraction(deps, await provider(), request.params.uid);
    },
  );

  app.post(
    '/api/oauth/requests/:uid/approve',
    {
      schema: {
        tags: ['account'],
        summary: 'Approve an app’s request: it may act for you within the monthly credit limit given',
        params: ZUidParams,
        body: ZOAuthConsent,
        response: { 200: ZOAuthRedirect, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return {
        redirectTo: await approveInteraction(deps, await provider(), user, request.params.uid, request.body),
      };
    },
  );

  app.post(
    '/api/oauth/requests/:uid/deny',
    {
      schema: {
        tags: ['account'],
        summary: 'Deny an app’s request: it receives access_denied',
        params: ZUidParams,
        response: { 200: ZOAuthRedirect, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await requireUser(request);
      return { redirectTo: await denyInteraction(await provider(), request.params.uid) };
    },
  );

  app.get(
    '/api/account/connected-apps',
    {
      schema: {
        tags: ['account'],
        summary: 'The apps you connected with OAuth (Claude, ChatGPT...), oldest first',
        response: { 200: ZConnectedAppList, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { apps: await listConnectedApps(deps, user.id) };
    },
  );

  app.patch(
    '/api/account/connected-apps/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Change a connected app’s monthly credit limit (null: none)',
        params: ZIdParams,
        body: ZConnectedAppUpdate,
        response: { 200: ZConnectedApp, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return updateConnectedApp(deps, user.id, request.params.id, request.body);
    },
  );

  app.delete(
    '/api/account/connected-apps/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Disconnect an app: its tokens stop working at once, open streams included',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await disconnectApp(deps.db, user.id, request.params.id);
      return { ok: true as const };
    },
  );
}
