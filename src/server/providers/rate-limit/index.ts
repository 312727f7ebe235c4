import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitStoreConfig } from '#server/config.js';
import { memoryCounters } from './memory.js';
import { redisCounters } from './redis.js';
import type { CounterStore, RateHit, RateLimiter, RateRule } from './types.js';

export type { RateHit, RateLimiter, RateRule } from './types.js';
export { secondsUntilReset } from './types.js';

/** While Redis stays unreachable, its error is logged again at most this often. */
const OUTAGE_LOG_EVERY_MS = 60_000;
/** How long the start waits for a first connection before it serves with the memory fallback. */
const FIRST_CONNECTION_WAIT_MS = 3_000;

/**
 * The one rate limiter of an app instance (chat, translate, sign-up and API-key limits all count through it):
 * in this process's memory, or in Redis when REDIS_URL is set so that every instance counts the same hits.
 *
 * If Redis cannot be reached, a hit is counted in this instance's memory instead and the outage is logged as
 * an error: the limits then hold per instance (N instances let through up to N times the limit) until Redis is
 * back, rather than every limited route failing with it (docs/decisions/108-shared-rate-limits-and-deployment.md).
 */
export async function createRateLimiter(
  config: RateLimitStoreConfig,
  log: FastifyBaseLogger,
): Promise<RateLimiter> {
  const memory = memoryCounters();
  if (config.kind === 'memory') return limiterOver('memory', memory, null, () => undefined);

  let down = false;
  let lastLogged = 0;
  const outage = (err: Error) => {
    const now = Date.now();
    if (!down || now - lastLogged >= OUTAGE_LOG_EVERY_MS) {
      // The failure's own words, never REDIS_URL (it may hold a password).
      log.error(
        { err: { name: err.name, message: err.message } },
        'rate limits: Redis is unreachable, counting in this instance only until it is back',
      );
      lastLogged = now;
    }
    down = true;
  };
  const redis = redisCounters(config, outage);
  redis.client.on('ready', () => {
    if (down) log.info('rate limits: Redis is reachable again, counting shared');
    down = false;
  });
  await firstConnection(redis.client, FIRST_CONNECTION_WAIT_MS).catch(outage);
  return limiterOver('redis', memory, redis, outage);
}

/** Counts in `shared` when there is one and it answers, otherwise in `memory`. */
function limiterOver(
  kind: RateLimiter['kind'],
  memory: CounterStore,
  shared: CounterStore | null,
  outage: (err: Error) => void,
): RateLimiter {
  // Which store counted each hit, so that a give-back goes to the same one.
  const countedIn = new WeakMap<RateHit, CounterStore>();
  const increment = async (key: string, windowMs: number, nowMs: number) => {
    if (shared) {
      try {
        return { store: shared, ...(await shared.increment(key, windowMs, nowMs)) };
      } catch (err) {
        outage(err as Error);
      }
    }
    return { store: memory, ...(await memory.increment(key, windowMs, nowMs)) };
  };
  return {
    kind,
    async hit(key: string, rule: RateRule, now: Date) {
      const { store, count, resetAt } = await increment(key, rule.windowMs, now.getTime());
      const hit: RateHit = { allowed: count <= rule.limit, count, resetAt };
      countedIn.set(hit, store);
      return hit;
    },
    async giveBack(key: string, hit: RateHit) {
      try {
        await countedIn.get(hit)?.decrement(key, hit.resetAt);
      } catch (err) {
        // The hit stays counted: the limit errs on the strict side for the rest of the window.
        outage(err as Error);
      }
    },
    async close() {
      await shared?.close();
      await memory.close();
    },
  };
}

/** Resolves on the client's first ready connection; rejects on its first error or after `ms`. */
function firstConnection(client: ReturnType<typeof redisCounters>['client'], ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const timer = setTimeout(() => done(new Error(`no connection within ${ms} ms`)), ms);
    client.once('ready', onReady);
    client.once('error', done);
  });
}
