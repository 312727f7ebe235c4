import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { App } from '../types.js';

/**
 * Per-user limits for the routes that call the LLM (chat replies, the admin's translate button): each call
 * costs money or compute. Kept in memory per instance: it protects the LLM from a runaway client; the hard cap
 * per run is `chat_max_messages`. Registered in each route's own scope, so it limits only the routes that ask.
 */
export async function registerLlmRateLimit(scope: App): Promise<void> {
  await scope.register(rateLimit, {
    global: false,
    keyGenerator: async (request: FastifyRequest) => {
      const session = await request.session();
      return session ? `user:${session.user.id}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many messages: try again in ${context.after}`, {
        retryAfter: Math.ceil(context.ttl / 1000),
      }),
  });
}

/** Route options: `max` calls per minute per user. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });
