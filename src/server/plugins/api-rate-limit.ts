import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { getSetting } from '../modules/settings/service.js';
import type { App, AppDeps } from '../types.js';
import { apiKeyOf } from './api-key.js';
import { limitRequests } from './rate-limit.js';

/**
 * Per-key limits for the public API and MCP (one count per key across both), read from the live setting
 * `api_requests_per_minute` on every request so an admin's change applies at once. A key gets a counter of
 * its own only once it is known to be live (looked up by its hash, the lookup the route then reuses);
 * requests without a key, or with one that is unknown, revoked or malformed, are counted by address, so a
 * flood of made-up keys spends one counter per address, not one per key.
 */
export function registerApiRateLimit(scope: App, deps: AppDeps): void {
  scope.addHook(
    'onRequest',
    limitRequests(deps, {
      name: 'api',
      rule: async () => ({ limit: await getSetting(deps.db, 'api_requests_per_minute'), windowMs: 60_000 }),
      key: async (request: FastifyRequest) => {
        const principal = await apiKeyOf(request, deps);
        return principal ? `key:${principal.keyId}` : `ip:${request.ip}`;
      },
      refusal: (seconds) => new AppError('RATE_LIMITED', 'default', { retryAfter: seconds }),
    }),
  );
}
