import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { getSetting } from '../modules/settings/service.js';
import type { App, AppDeps } from '../types.js';
import { limitRequests } from './rate-limit.js';

/**
 * Per-key limits for the public API and MCP (one count per key across both), read from the live setting
 * `api_requests_per_minute` on every request so an admin's change applies at once. The counter is keyed by a
 * hash of the presented credential, so it runs before (and without) the key's lookup and never holds the key
 * itself; callers without a key are counted by address.
 */
export function registerApiRateLimit(scope: App, deps: AppDeps): void {
  scope.addHook(
    'onRequest',
    limitRequests(deps, {
      name: 'api',
      rule: async () => ({ limit: await getSetting(deps.db, 'api_requests_per_minute'), windowMs: 60_000 }),
      key: (request: FastifyRequest) => {
        const auth = request.headers.authorization;
        return auth ? `key:${createHash('sha256').update(auth).digest('base64url')}` : `ip:${request.ip}`;
      },
      refusal: (seconds) => new AppError('RATE_LIMITED', 'default', { retryAfter: seconds }),
    }),
  );
}
