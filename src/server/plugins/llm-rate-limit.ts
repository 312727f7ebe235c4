import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { AppDeps } from '../types.js';
import { limitRequests } from './rate-limit.js';

/**
 * Per-user limits for the routes that call the LLM (chat replies, the admin's translate button): each call
 * costs money or compute. Counted by the app's rate limiter, so with REDIS_URL every instance counts the same
 * calls; it protects the LLM from a runaway client, and the hard cap per run is `chat_max_messages`. Visitors
 * are counted by address.
 */
export function llmRateLimit(deps: AppDeps, name: 'chat' | 'translate', perMinute: number) {
  return limitRequests(deps, {
    name,
    rule: () => ({ limit: perMinute, windowMs: 60_000 }),
    key: async (request: FastifyRequest) => {
      const session = await request.session();
      return session ? `user:${session.user.id}` : `ip:${request.ip}`;
    },
    refusal: (seconds) =>
      new AppError('RATE_LIMITED', { key: 'llmCalls', params: { seconds } }, { retryAfter: seconds }),
  });
}
