/** How many hits one key may make per window. A key's window starts at its first hit and lasts `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/** One counted hit. */
export interface RateHit {
  allowed: boolean;
  /** Hits counted in this window, this one included (the limit itself for a hit refused for want of room). */
  count: number;
  /** When the window ends, in milliseconds since the epoch on the app's clock. */
  resetAt: number;
}

/** A hit counted in a window. */
export interface Counted {
  count: number;
  resetAt: number;
}

/** A hit on a key with no counter, refused because the store is full: room frees up at `retryAt`. */
export interface NoRoom {
  full: true;
  retryAt: number;
}

/**
 * The counters behind every rate limit: one atomic step that counts a hit and says where its window stands,
 * and one that gives a hit back. The window is measured on the caller's clock, so every store follows the
 * app's `now` (and a test's clock) the same way.
 */
export interface CounterStore {
  /**
   * Counts one hit on `key`: a new window (count 1) if there is none or it ended at or before `nowMs`. A
   * store with bounded room answers NoRoom rather than drop a window that is still running.
   */
  increment(key: string, windowMs: number, nowMs: number): Promise<Counted | NoRoom>;
  /** Takes one hit back from `key`, only if its window is still the one ending at `resetAt`. */
  decrement(key: string, resetAt: number): Promise<void>;
  close(): Promise<void>;
}

/** One named limit's counters (chat, translate, API): each has a store of its own. */
export interface RateLimiter {
  /** Where the counts live; `redis` falls back to this instance's memory while Redis is unreachable. */
  readonly kind: 'memory' | 'redis';
  /** Counts one hit on `key` and says whether it is within the rule. */
  hit(key: string, rule: RateRule, now: Date): Promise<RateHit>;
  /** Gives a hit back (the work it guarded did not happen), if its window is still running. */
  giveBack(key: string, hit: RateHit): Promise<void>;
}

/** Whole seconds until a window ends, at least 1: what Retry-After says. */
export function secondsUntilReset(hit: RateHit, now: Date): number {
  return Math.max(1, Math.ceil((hit.resetAt - now.getTime()) / 1000));
}
