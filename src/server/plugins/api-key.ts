import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { authenticateApiKey, type ApiPrincipal } from '../modules/apikeys/service.js';
import type { AppDeps } from '../types.js';

const BEARER = /^Bearer (\S+)$/;

/** Whatever follows `Authorization: Bearer `, unchecked (the lookup by its hash decides), or null. */
export function presentedApiKey(request: FastifyRequest): string | null {
  return BEARER.exec(request.headers.authorization ?? '')?.[1] || null;
}

/** The one refusal of a missing or bad key: the same body and header whatever was wrong with it. */
export function refuseApiKey(reply: FastifyReply): never {
  void reply.header('www-authenticate', 'Bearer realm="flujo"');
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
  const cache = request as FastifyRequest & { _apiKey?: Promise<ApiPrincipal | null> };
  if (!cache._apiKey) {
    const presented = presentedApiKey(request);
    cache._apiKey = presented ? authenticateApiKey(deps, presented) : Promise.resolve(null);
  }
  const principal = await cache._apiKey;
  if (!principal) refuseApiKey(reply);
  return principal;
}
