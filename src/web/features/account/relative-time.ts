const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Relative-time buckets: under 1 hour, 1 hour, N hours, 1 day, N days. */
export type RelativeTime = { unit: 'underHour' } | { unit: 'hours' | 'days'; count: number };

/** How long ago `then` was, in whole hours below a day and whole days after; null for an unreadable date. */
export function relativeTime(then: string, now: Date): RelativeTime | null {
  const time = Date.parse(then);
  if (Number.isNaN(time)) return null;
  // A clock slightly ahead of this device still reads as "just now".
  const elapsed = Math.max(0, now.getTime() - time);
  if (elapsed < HOUR_MS) return { unit: 'underHour' };
  if (elapsed < DAY_MS) return { unit: 'hours', count: Math.floor(elapsed / HOUR_MS) };
  return { unit: 'days', count: Math.floor(elapsed / DAY_MS) };
}
