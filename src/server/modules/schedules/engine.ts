import { Cron } from 'croner';
import { AppError } from '#server/lib/errors.js';

/**
 * When a schedule runs: a 5-field cron expression read as wall-clock time in an IANA time zone, and an
 * optional end (runs happen strictly before it). Every answer here is computed from these and a reference
 * time the caller passes (its injected clock); nothing reads the real clock.
 */
export interface Timing {
  cron: string;
  timezone: string;
  endsAt: Date | null;
}

/** Longest cron expression and time zone name accepted (the longest IANA name is 32 characters). */
const MAX_CRON_LENGTH = 100;
const MAX_TIMEZONE_LENGTH = 64;

/**
 * The pattern, parsed by croner (decision 141). Daylight saving follows croner's rule for fixed-time jobs,
 * which is the product's: a time that does not exist on the change day runs at the first valid minute after
 * the gap, and a time that exists twice runs once, at its first occurrence. `no-wildcard` counts lists
 * (`0 9,18 * * *`) as fixed times too, as people who pick "09:00 and 18:00" expect.
 */
/**
 * Parsed patterns by time zone and expression. Parsing is most of what deciding a due time costs (a tenth of a
 * due start's CPU in the schedules benchmark, decision 169), and the schedules due in one minute mostly share a
 * few patterns ("every day at 09:00"). A paused Cron keeps no state between nextRuns/previousRuns calls, so one
 * object serves them all; the map is emptied when it reaches its bound, so it never grows with the schedules.
 */
const parsed = new Map<string, Cron>();
const PARSED_KEPT = 1_000;

function parse(cron: string, timezone: string): Cron {
  const key = `${timezone}\n${cron}`;
  let pattern = parsed.get(key);
  if (!pattern) {
    pattern = new Cron(cron, { timezone, mode: '5-part', fixedTimeRule: 'no-wildcard', paused: true });
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(key, pattern);
  }
  return pattern;
}

/** Whether a name is an IANA time zone this runtime knows. */
function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > MAX_TIMEZONE_LENGTH) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The values a single field takes, read by croner on a pattern that varies only that field. */
function fieldValues(pattern: string, from: Date, unitMs: number, count: number): number[] {
  const cron = new Cron(pattern, { timezone: 'UTC', mode: '5-part', paused: true });
  const start = new Date(from.getTime() - 1);
  return cron
    .nextRuns(count, start)
    .map((d) => Math.round((d.getTime() - from.getTime()) / unitMs))
    .filter((v) => v < count);
}

/** The name, when it is a time zone; a VALIDATION_ERROR in the reader's language otherwise. */
export function checkedTimezone(name: string): string {
  if (!isTimeZone(name)) {
    throw new AppError('VALIDATION_ERROR', {
      key: 'timezoneUnknown',
      params: { timezone: name.slice(0, 64) },
    });
  }
  return name;
}

/**
 * The shortest gap, in minutes, between two consecutive times the expression can fire. Only the minute and
 * hour fields decide it (the day fields choose days, and the last time of one day may be followed by the first
 * of the next), so it is measured on the times of a day that fires every day: a superset of the real times,
 * which can only make the answer smaller, never let a too frequent expression through.
 */
export function shortestGapMinutes(cron: string): number {
  const [minute, hour] = cron.trim().split(/\s+/);
  const midnight = new Date(Date.UTC(2000, 0, 1));
  const minutes = fieldValues(`${minute} 0 * * *`, midnight, 60_000, 60);
  const hours = fieldValues(`0 ${hour} * * *`, midnight, 3_600_000, 24);
  const times = hours.flatMap((h) => minutes.map((m) => h * 60 + m));
  if (times.length <= 1) return 1440;
  let gap = 1440 - times[times.length - 1]! + times[0]!;
  for (let i = 1; i < times.length; i += 1) gap = Math.min(gap, times[i]! - times[i - 1]!);
  return gap;
}

/**
 * Checks a schedule's timing before it is stored: the time zone, the expression, that it fires at all, and
 * not more often than every `minIntervalMinutes` (config `schedule_min_interval_minutes`). Each refusal is a
 * VALIDATION_ERROR with its own text in the reader's language.
 */
export function checkTiming(timing: Timing, minIntervalMinutes: number, now: Date): void {
  checkedTimezone(timing.timezone);
  const cron = timing.cron.trim();
  if (cron.length === 0 || cron.length > MAX_CRON_LENGTH || cron.split(/\s+/).length !== 5) {
    throw new AppError('VALIDATION_ERROR', 'cronInvalid');
  }
  let pattern: Cron;
  try {
    pattern = parse(cron, timing.timezone);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'cronInvalid');
  }
  if (timing.endsAt && timing.endsAt <= now) throw new AppError('VALIDATION_ERROR', 'scheduleEndInPast');
  if (!pattern.nextRun(now)) throw new AppError('VALIDATION_ERROR', 'cronNeverRuns');
  if (shortestGapMinutes(cron) < minIntervalMinutes) {
    throw new AppError('VALIDATION_ERROR', {
      key: 'cronTooFrequent',
      params: { minutes: minIntervalMinutes },
    });
  }
}

/** The next `count` times after `after` (exclusive), in order, none at or past the end. */
export function nextRuns(timing: Timing, after: Date, count: number): Date[] {
  const runs = parse(timing.cron.trim(), timing.timezone).nextRuns(count, after);
  return timing.endsAt ? runs.filter((d) => d < timing.endsAt!) : runs;
}

/** The next time after `after`, or null when the schedule has ended. */
export function nextRun(timing: Timing, after: Date): Date | null {
  return nextRuns(timing, after, 1)[0] ?? null;
}

/** What a schedule found due at `now` does. */
export interface DueDecision {
  /** The due time to run (the latest one not past `now`), or null when the missed times are too old. */
  run: Date | null;
  /** The latest due time, run or not (what the history records). */
  latest: Date;
  /** Due times before `latest` that were passed over (the server was down), counted up to a cap. */
  missed: number;
  /** The next time after `now`, or null when the schedule has ended. */
  next: Date | null;
}

/** Missed times are counted up to this; beyond it the history says "at least". */
const MISSED_COUNT_CAP = 100;

/**
 * Due times from `dueAt` (the schedule's stored next time, not later than `now`) to `now`. Only the latest runs,
 * never a burst: on time (the job looks every few seconds) or after downtime alike, it runs when it is less
 * than its own interval ago (the gap from the time before it), and is recorded as missed otherwise. So a daily
 * 09:00 found at 20:00 still runs, once; a weekday schedule found on Sunday does not run for Friday.
 */
export function decideDue(timing: Timing, dueAt: Date, now: Date): DueDecision {
  const pattern = parse(timing.cron.trim(), timing.timezone);
  const ends = timing.endsAt;
  const limit = ends && ends <= now ? new Date(ends.getTime() - 1) : now;
  // Walked forward from the stored time (on time, that is one step); past the cap, read back from now.
  let latest = dueAt;
  let before: Date | null = null;
  let missed = 0;
  // One step at a time with nextRuns(1): croner's enumerate costs far more per step.
  for (let time = pattern.nextRuns(1, dueAt)[0]; time && time <= limit; time = pattern.nextRuns(1, time)[0]) {
    if (missed >= MISSED_COUNT_CAP) {
      const [last, previous] = pattern.previousRuns(2, new Date(limit.getTime() + 1));
      if (last && last > latest) [latest, before] = [last, previous ?? null];
      break;
    }
    missed += 1;
    [before, latest] = [latest, time];
  }
  const lateMs = now.getTime() - latest.getTime();
  // Fresh when less than its interval ago. Any interval is at least the expression's shortest gap, so the job's
  // usual few seconds of lateness never needs the time before it, which croner finds slowly (backwards).
  let fresh = lateMs < cachedShortestGap(timing.cron) * 60_000;
  if (!fresh) {
    before ??= pattern.previousRuns(2, new Date(latest.getTime() + 1))[1] ?? null;
    fresh = !before || lateMs < latest.getTime() - before.getTime();
  }
  const [next] = pattern.nextRuns(1, now);
  return { run: fresh ? latest : null, latest, missed, next: next && (!ends || next < ends) ? next : null };
}

const gaps = new Map<string, number>();
/** shortestGapMinutes, remembered per expression (a due batch has few distinct ones). */
function cachedShortestGap(cron: string): number {
  const key = cron.trim();
  let gap = gaps.get(key);
  if (gap === undefined) {
    if (gaps.size >= 1000) gaps.clear();
    gap = shortestGapMinutes(key);
    gaps.set(key, gap);
  }
  return gap;
}
