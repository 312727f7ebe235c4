import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../lib/errors.js';
import {
  createRateLimiter,
  secondsUntilReset,
  type RateLimiter,
  type RateRule,
} from '../providers/rate-limit/index.js';
import type { App, AppDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's one rate limiter: memory, or Redis with REDIS_URL. Closed with the app. */
    rateLimiter: RateLimiter;
  }
}

export async function registerRateLimiter(app: App, deps: AppDeps): Promise<void> {
  const limiter = await createRateLimiter(deps.config.rateLimits, app.log);
  app.decorate('rateLimiter', limiter);
  app.addHook('onClose', async () => limiter.close());
}

/** A limit on requests, counted per key before the request's body is read. */
export interface RequestLimit {
  /** The counter's name: routes limited under one name share one count per key. */
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
    const key = `${limit.name}:${await limit.key(request)}`;
    const now = deps.now();
    const hit = await request.server.rateLimiter.hit(key, rule, now);
    const reset = secondsUntilReset(hit, now);
    void reply
      .header('x-ratelimit-limit', rule.limit)
      .header('x-ratelimit-remaining', Math.max(0, rule.limit - hit.count))
      .header('x-ratelimit-reset', reset);
    if (!hit.allowed) throw limit.refusal(reset);
  };
}
