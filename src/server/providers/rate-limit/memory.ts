import type { CounterStore } from './types.js';

/** Counters kept at most; past it the oldest windows are forgotten (their keys start counting again). */
export const MEMORY_MAX_KEYS = 100_000;
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this process's memory: for one instance, and what a Redis-backed limiter counts in while Redis
 * is unreachable. Ended windows are swept once a minute; the cap bounds what a flood of distinct keys (random
 * API credentials, say) can hold.
 */
export function memoryCounters(maxKeys = MEMORY_MAX_KEYS): CounterStore {
  const counters = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;

  const sweep = (nowMs: number) => {
    for (const [key, counter] of counters) if (counter.resetAt <= nowMs) counters.delete(key);
    // Map keeps insertion order and a new window is inserted afresh, so the first entries are the oldest. A
    // tenth is freed at once, so that a flood does not sweep the whole map on every hit.
    if (counters.size >= maxKeys) {
      for (const key of counters.keys()) {
        if (counters.size < maxKeys * 0.9) break;
        counters.delete(key);
      }
    }
    nextSweep = nowMs + SWEEP_EVERY_MS;
  };

  return {
    async increment(key, windowMs, nowMs) {
      if (nowMs >= nextSweep || counters.size >= maxKeys) sweep(nowMs);
      const counter = counters.get(key);
      if (counter && counter.resetAt > nowMs) {
        counter.count += 1;
        return { ...counter };
      }
      counters.delete(key);
      const fresh = { count: 1, resetAt: nowMs + windowMs };
      counters.set(key, fresh);
      return { ...fresh };
    },
    async decrement(key, resetAt) {
      const counter = counters.get(key);
      if (counter && counter.resetAt === resetAt && counter.count > 0) counter.count -= 1;
    },
    async close() {
      counters.clear();
    },
  };
}
