import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../lib/errors.js';
import {
  openRateLimits,
  secondsUntilReset,
  type RateLimitOptions,
  type RateLimits,
  type RateRule,
} from '../providers/rate-limit/index.js';
import type { App, AppDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's rate limits, one limiter per name: memory, or Redis with REDIS_URL. Closed with the app. */
    rateLimits: RateLimits;
  }
}

export async function registerRateLimits(app: App, deps: AppDeps, options: RateLimitOptions): Promise<void> {
  const limits = await openRateLimits(deps.config.rateLimits, app.log, options);
  app.decorate('rateLimits', limits);
  app.addHook('onClose', async () => limits.close());
}

/** A limit on requests, counted per key before the request's body is read. */
export interface RequestLimit {
  /** The limiter's name: routes limited under one name share one count per key, apart from other names. */
  name: string;
  rule(request: FastifyRequest): RateRule | Promise<RateRule>;
  key(request: FastifyRequest): string | Promise<string>;
  /** The error a request over the limit gets, given the seconds until it may try again. */
  refusal(retryAfter: number): AppError<'RATE_LIMITED'>;
}

/**
 * An `onRequest` hook that counts each request against `limit`, tells the caller where it stands
 * (`X-RateLimit-Limit`, `-Remaining`, `-Reset` in seconds) and refuses one over the limit with 429 and
 * Retry-After.
 */
export function limitRequests(deps: AppDeps, limit: RequestLimit) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const rule = await limit.rule(request);
    const key = await limit.key(request);
    const now = deps.now();
    const hit = await request.server.rateLimits.limiter(limit.name).hit(key, rule, now);
    const reset = secondsUntilReset(hit, now);
    void reply
      .header('x-ratelimit-limit', rule.limit)
      .header('x-ratelimit-remaining', Math.max(0, rule.limit - hit.count))
      .header('x-ratelimit-reset', reset);
    if (!hit.allowed) throw limit.refusal(reset);
  };
}
