import { Redis } from 'ioredis';
import type { CounterStore } from './types.js';

/**
 * Counts a hit and answers `{count, resetAt}` in one atomic step: a key with no window, or one that ended at
 * or before the caller's now, starts a new window of one hit. The window is a hash (count, end) rather than a
 * bare INCR with PEXPIRE, so that its end follows the app's clock like the memory store's; the key still
 * expires with its window, so Redis holds nothing once a key stops hitting.
 */
const INCREMENT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset'))
if reset == nil or reset <= now then
  reset = now + window
  redis.call('HSET', KEYS[1], 'count', 1, 'reset', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, reset}
end
return {redis.call('HINCRBY', KEYS[1], 'count', 1), reset}
`;

/** Takes a hit back, only within the window it was counted in and never below zero. */
const DECREMENT = `
if redis.call('HGET', KEYS[1], 'reset') == ARGV[1] and tonumber(redis.call('HGET', KEYS[1], 'count')) > 0 then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0
`;

type ScriptedRedis = Redis & {
  flujoRateIncrement(
    key: string,
    nowMs: number,
    windowMs: number,
    resetAt: string,
  ): Promise<[number, number]>;
  flujoRateDecrement(key: string, resetAt: string): Promise<number>;
};

/** How long a hit waits for Redis before the limiter counts it in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Counters in Redis, shared by every instance that names the same Redis and key prefix. Commands fail at once
 * while the connection is down (no offline queue) and after half a second on a stalled one, so a request never
 * waits on Redis for longer; the client reconnects by itself in the background.
 */
export function redisCounters(
  options: { url: string; keyPrefix: string },
  onConnectionError: (err: Error) => void,
): CounterStore & { client: Redis } {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    // A hit whose answer was lost with the connection has been counted in memory by then: never send it again.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnects every half second at first, then every 5 seconds.
    retryStrategy: (times) => Math.min(times * 500, 5_000),
  }) as ScriptedRedis;
  client.on('error', onConnectionError);
  client.defineCommand('flujoRateIncrement', { numberOfKeys: 1, lua: INCREMENT });
  client.defineCommand('flujoRateDecrement', { numberOfKeys: 1, lua: DECREMENT });
  const keyOf = (key: string) => `${options.keyPrefix}rate:${key}`;
  return {
    client,
    async increment(key, windowMs, nowMs) {
      // The window's end is sent as text as well, so the hash holds exactly the digits a give-back compares.
      const [count, resetAt] = await client.flujoRateIncrement(
        keyOf(key),
        nowMs,
        windowMs,
        String(nowMs + windowMs),
      );
      return { count, resetAt };
    },
    async decrement(key, resetAt) {
      await client.flujoRateDecrement(keyOf(key), String(resetAt));
    },
    async close() {
      client.disconnect();
    },
  };
}
