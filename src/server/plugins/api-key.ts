import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { authenticateApiKey, type ApiPrincipal } from '../modules/apikeys/service.js';
import { protectedResourceMetadataUrl } from '../modules/oauth/routes.js';
import { audiencesOfPath, authenticateAccessToken, isApiKey, isMcpPath } from '../modules/oauth/service.js';
import type { AppDeps } from '../types.js';

const BEARER = /^Bearer (\S+)$/;

/** Whatever follows `Authorization: Bearer `, unchecked (the lookup by its hash decides), or null. */
export function presentedApiKey(request: FastifyRequest): string | null {
  return BEARER.exec(request.headers.authorization ?? '')?.[1] || null;
}

/**
 * The one refusal of a missing or bad key or token: the same body and header whatever was wrong with it. The
 * header names the resource's metadata (RFC 9728), where an OAuth client such as Claude's connector discovers
 * how to get a token.
 */
export function refuseApiKey(reply: FastifyReply, deps: AppDeps): never {
  const { publicUrl } = deps.config;
  const metadata = protectedResourceMetadataUrl(publicUrl, isMcpPath(reply.request.url) ? 'mcp' : 'api');
  void reply.header('www-authenticate', `Bearer realm="flujo", resource_metadata="${metadata}"`);
  throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
}

/**
 * The API key behind `Authorization: Bearer flj_...`, or 401. Only /api/v1 and /mcp call this; they never
 * read the session cookie, which is why they need no CSRF check. (POST /api/v1/runs looks its key up together
 * with the rest of what a start reads, and refuses with refuseApiKey.)
 */
export async function requireApiKey(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
): Promise<ApiPrincipal> {
  const principal = await apiKeyOf(request, deps);
  if (!principal) refuseApiKey(reply, deps);
  return principal;
}

/**
 * The live key or OAuth access token the request presents, or null; looked up once per request (the rate limit
 * asks first, the route after it). A token counts only where the resource it was issued for does (/mcp, or
 * /api/v1 with or without its management API).
 */
export function apiKeyOf(request: FastifyRequest, deps: AppDeps): Promise<ApiPrincipal | null> {
  const cache = request as FastifyRequest & { _apiKey?: Promise<ApiPrincipal | null> };
  if (!cache._apiKey) {
    const presented = presentedApiKey(request);
    cache._apiKey = !presented
      ? Promise.resolve(null)
      : isApiKey(presented)
        ? authenticateApiKey(deps, presented)
        : authenticateAccessToken(deps, presented, audiencesOfPath(deps.config.publicUrl, request.url));
  }
  return cache._apiKey;
}

/**
 * An admin API key (scope 'admin') of an account that is still an admin, or 401 (no live key) / 403 (a key
 * that may not manage): the guard of /api/v1/admin/ (decision 152). A demoted admin's admin keys keep their
 * owner's own API but lose this at once, as the admin check reads the owner's profile on every request.
 */
export async function requireAdminKey(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
): Promise<ApiPrincipal> {
  const principal = await requireApiKey(request, reply, deps);
  if (principal.scope !== 'admin' || !principal.user.isAdmin) {
    throw new AppError('FORBIDDEN', 'adminKeyRequired');
  }
  return principal;
}
