import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitStoreConfig } from '#server/config.js';
import { memoryCounters } from './memory.js';
import type { redisCounters } from './redis.js';
import type { CounterStore, RateHit, RateLimiter, RateRule } from './types.js';

export type { RateLimiter, RateRule } from './types.js';
export { secondsUntilReset } from './types.js';

/** Full stores and Redis outages are logged again at most this often. */
const OUTAGE_LOG_EVERY_MS = 60_000;
/** How long the start waits for a first connection before it serves with the memory fallback. */
const FIRST_CONNECTION_WAIT_MS = 3_000;

export interface RateLimitOptions {
  /** Counters each named limiter keeps in memory at most (alone, or while Redis is unreachable). */
  memoryCapacity?: number;
}

/** An app instance's rate limits: one limiter (and one in-memory store) per named limit. */
export interface RateLimits {
  readonly kind: RateLimiter['kind'];
  /** The limiter named `name` (made on first use); its keys are counted apart from every other limiter's. */
  limiter(name: string): RateLimiter;
  close(): Promise<void>;
}

/**
 * The rate limits of an app instance (chat, translate and API-key limits count through them): in this
 * process's memory, or in Redis when REDIS_URL is set so that every instance counts the same hits. Each
 * named limiter has its own memory store, so a flood of one limit's keys cannot take the room of another's.
 *
 * If Redis cannot be reached, a hit is counted in this instance's memory instead and the outage is logged as
 * an error: the limits then hold per instance (N instances let through up to N times the limit) until Redis is
 * back, rather than every limited route failing with it (docs/decisions/108-shared-rate-limits-and-deployment.md).
 */
export async function openRateLimits(
  config: RateLimitStoreConfig,
  log: FastifyBaseLogger,
  options: RateLimitOptions = {},
): Promise<RateLimits> {
  const limiters = new Map<string, { limiter: RateLimiter; memory: CounterStore }>();
  let lastFullLog = Number.NEGATIVE_INFINITY;
  const full = (name: string) => {
    const now = Date.now();
    if (now - lastFullLog < OUTAGE_LOG_EVERY_MS) return;
    lastFullLog = now;
    log.warn(
      { limiter: name },
      'rate limits: the in-memory counters are full, new callers are refused until windows end',
    );
  };
  const setOver = (
    kind: RateLimiter['kind'],
    shared: CounterStore | null,
    outage: (err: Error) => void,
  ): RateLimits => ({
    kind,
    limiter(name) {
      let entry = limiters.get(name);
      if (!entry) {
        const memory = memoryCounters(options.memoryCapacity);
        entry = { memory, limiter: limiterOver(kind, name, memory, shared, outage, () => full(name)) };
        limiters.set(name, entry);
      }
      return entry.limiter;
    },
    async close() {
      await shared?.close();
      for (const { memory } of limiters.values()) await memory.close();
    },
  });
  if (config.kind === 'memory') return setOver('memory', null, () => undefined);

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
  // Loaded only here: Redis's client is a tenth of the server's start, which an instance counting in its own
  // memory never needs.
  const redis = (await import('./redis.js')).redisCounters(config, outage);
  redis.client.on('ready', () => {
    if (down) log.info('rate limits: Redis is reachable again, counting shared');
    down = false;
  });
  await firstConnection(redis.client, FIRST_CONNECTION_WAIT_MS).catch(outage);
  return setOver('redis', redis, outage);
}

/** Counts `name:key` in `shared` when there is one and it answers, otherwise in `memory`. */
function limiterOver(
  kind: RateLimiter['kind'],
  name: string,
  memory: CounterStore,
  shared: CounterStore | null,
  outage: (err: Error) => void,
  full: () => void,
): RateLimiter {
  // Which store counted each hit, so that a give-back goes to the same one.
  const countedIn = new WeakMap<RateHit, CounterStore>();
  const increment = async (key: string, windowMs: number, nowMs: number) => {
    if (shared) {
      try {
        return { store: shared, outcome: await shared.increment(key, windowMs, nowMs) };
      } catch (err) {
        outage(err as Error);
      }
    }
    return { store: memory, outcome: await memory.increment(key, windowMs, nowMs) };
  };
  return {
    kind,
    async hit(key: string, rule: RateRule, now: Date) {
      const { store, outcome } = await increment(`${name}:${key}`, rule.windowMs, now.getTime());
      if ('full' in outcome) {
        full();
        return { allowed: false, count: rule.limit, resetAt: outcome.retryAt };
      }
      const hit: RateHit = { allowed: outcome.count <= rule.limit, ...outcome };
      countedIn.set(hit, store);
      return hit;
    },
    async giveBack(key: string, hit: RateHit) {
      try {
        await countedIn.get(hit)?.decrement(`${name}:${key}`, hit.resetAt);
      } catch (err) {
        // The hit stays counted: the limit errs on the strict side for the rest of the window.
        outage(err as Error);
      }
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
