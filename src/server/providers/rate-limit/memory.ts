import type { CounterStore } from './types.js';

/** Counters one in-memory store holds at most (each named limit has its own store). */
const MEMORY_MAX_KEYS = 100_000;
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this process's memory: for one instance, and what a Redis-backed limiter counts in while Redis
 * is unreachable. Ended windows are swept once a minute. The room is bounded, and a window that is still
 * running is never dropped to make room: a flood of distinct keys would otherwise reset the counters of the
 * keys that matter (an exhausted limit starting afresh). When the store is full, a key with no counter is
 * refused until the first window ends (docs/decisions/117-rate-limit-counters-are-never-evicted.md).
 */
export function memoryCounters(capacity = MEMORY_MAX_KEYS): CounterStore {
  const counters = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;
  // While full: when the earliest window ends. Until then a full store refuses without scanning again.
  let roomAt = 0;

  const sweep = (nowMs: number) => {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, counter] of counters) {
      if (counter.resetAt <= nowMs) counters.delete(key);
      else earliest = Math.min(earliest, counter.resetAt);
    }
    roomAt = counters.size >= capacity ? earliest : 0;
    nextSweep = nowMs + SWEEP_EVERY_MS;
  };

  return {
    async increment(key, windowMs, nowMs) {
      if (nowMs >= nextSweep) sweep(nowMs);
      const counter = counters.get(key);
      if (counter && counter.resetAt > nowMs) {
        counter.count += 1;
        return { ...counter };
      }
      if (counter) counters.delete(key);
      else if (counters.size >= capacity) {
        // A limiter's windows share one length and a new window is inserted afresh, so the first entry ends
        // first: under a steady flood its room is freed without scanning the store on every hit.
        const [first] = counters;
        if (first && first[1].resetAt <= nowMs) counters.delete(first[0]);
        else if (nowMs >= roomAt) sweep(nowMs);
        if (counters.size >= capacity) return { full: true, retryAt: roomAt };
      }
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
