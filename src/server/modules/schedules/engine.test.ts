import { describe, expect, it } from 'vitest';
import { AppError } from '#server/lib/errors.js';
import { checkTiming, decideDue, nextRuns, shortestGapMinutes, type Timing } from './engine.js';

const at = (iso: string) => new Date(iso);
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const timing = (cron: string, timezone: string, endsAt: string | null = null): Timing => ({
  cron,
  timezone,
  endsAt: endsAt ? at(endsAt) : null,
});
/** Wall-clock time of an instant in a zone, "YYYY-MM-DD HH:mm ddd". */
function wall(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.weekday}`;
}
function refusal(fn: () => void): { key: string; es: string; en: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError)
      return { key: err.textKey, es: err.messageIn('es'), en: err.messageIn('en') };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('next run times for every kind of schedule', () => {
  const now = at('2026-11-28T10:00:00Z'); // a Saturday

  it("every day at a time, in the person's time zone", () => {
    const runs = nextRuns(timing('0 9 * * *', 'Europe/Madrid'), now, 3);
    expect(runs.map((d) => wall(d, 'Europe/Madrid'))).toEqual([
      '2026-11-29 09:00 Sun',
      '2026-11-30 09:00 Mon',
      '2026-12-01 09:00 Tue',
    ]);
    expect(iso(runs)[0]).toBe('2026-11-29T08:00:00.000Z');
  });

  it('chosen weekdays', () => {
    const runs = nextRuns(timing('30 7 * * 1,3,5', 'America/New_York'), now, 4);
    expect(runs.map((d) => wall(d, 'America/New_York'))).toEqual([
      '2026-11-30 07:30 Mon',
      '2026-12-02 07:30 Wed',
      '2026-12-04 07:30 Fri',
      '2026-12-07 07:30 Mon',
    ]);
  });

  it('a day of the month, skipping months without it', () => {
    const runs = nextRuns(timing('0 18 31 * *', 'Europe/Madrid'), now, 3);
    expect(runs.map((d) => wall(d, 'Europe/Madrid'))).toEqual([
      '2026-12-31 18:00 Thu',
      '2027-01-31 18:00 Sun',
      '2027-03-31 18:00 Wed',
    ]);
  });

  it('an advanced cron expression', () => {
    const runs = nextRuns(timing('*/20 8-9 * * 1-5', 'UTC'), now, 7);
    expect(iso(runs)).toEqual([
      '2026-11-30T08:00:00.000Z',
      '2026-11-30T08:20:00.000Z',
      '2026-11-30T08:40:00.000Z',
      '2026-11-30T09:00:00.000Z',
      '2026-11-30T09:20:00.000Z',
      '2026-11-30T09:40:00.000Z',
      '2026-12-01T08:00:00.000Z',
    ]);
  });

  it('stops before the end date', () => {
    const runs = nextRuns(timing('0 9 * * *', 'Europe/Madrid', '2026-12-01T08:00:00Z'), now, 5);
    expect(runs.map((d) => wall(d, 'Europe/Madrid'))).toEqual([
      '2026-11-29 09:00 Sun',
      '2026-11-30 09:00 Mon',
    ]);
  });
});

describe('daylight saving', () => {
  it('09:00 in Europe/Madrid stays 09:00 across both changes', () => {
    const spring = nextRuns(timing('0 9 * * *', 'Europe/Madrid'), at('2026-03-28T00:00:00Z'), 3);
    expect(spring.map((d) => wall(d, 'Europe/Madrid'))).toEqual([
      '2026-03-28 09:00 Sat',
      '2026-03-29 09:00 Sun',
      '2026-03-30 09:00 Mon',
    ]);
    // UTC+1 before the change, UTC+2 after it.
    expect(iso(spring)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    const autumn = nextRuns(timing('0 9 * * *', 'Europe/Madrid'), at('2026-10-24T00:00:00Z'), 3);
    expect(iso(autumn)).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
  });

  it('a time that does not exist on the change day runs at the next valid minute, that day', () => {
    // Europe/Madrid: 02:00 becomes 03:00 on 29 March 2026.
    const madrid = nextRuns(timing('30 2 * * *', 'Europe/Madrid'), at('2026-03-28T12:00:00Z'), 2);
    expect(madrid.map((d) => wall(d, 'Europe/Madrid'))).toEqual([
      '2026-03-29 03:00 Sun',
      '2026-03-30 02:30 Mon',
    ]);
    // America/New_York: 02:00 becomes 03:00 on 8 March 2026.
    const newYork = nextRuns(timing('30 2 * * *', 'America/New_York'), at('2026-03-07T12:00:00Z'), 2);
    expect(newYork.map((d) => wall(d, 'America/New_York'))).toEqual([
      '2026-03-08 03:00 Sun',
      '2026-03-09 02:30 Mon',
    ]);
  });

  it('a time that exists twice runs once', () => {
    // Europe/Madrid: 03:00 goes back to 02:00 on 25 October 2026, so 02:30 happens twice.
    const madrid = nextRuns(timing('30 2 * * *', 'Europe/Madrid'), at('2026-10-24T12:00:00Z'), 2);
    expect(iso(madrid)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // America/New_York: 01:30 happens twice on 1 November 2026.
    const newYork = nextRuns(timing('30 1 * * *', 'America/New_York'), at('2026-10-31T12:00:00Z'), 2);
    expect(iso(newYork)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    expect(newYork.map((d) => wall(d, 'America/New_York'))).toEqual([
      '2026-11-01 01:30 Sun',
      '2026-11-02 01:30 Mon',
    ]);
  });

  it('a due time that exists twice is not run again at its second occurrence', () => {
    const t = timing('30 1 * * *', 'America/New_York');
    const first = at('2026-11-01T05:30:00Z');
    const decision = decideDue(t, first, at('2026-11-01T05:30:04Z'));
    expect(decision.run).toEqual(first);
    // The next time after it is the next day's, not the second 01:30 an hour later.
    expect(decision.next).toEqual(at('2026-11-02T06:30:00Z'));
  });
});

describe('what a due schedule does', () => {
  const daily = timing('0 9 * * *', 'Europe/Madrid');

  it('runs the due time when found on time', () => {
    const due = at('2026-11-27T08:00:00Z');
    expect(decideDue(daily, due, at('2026-11-27T08:00:03Z'))).toEqual({
      run: due,
      latest: due,
      missed: 0,
      next: at('2026-11-28T08:00:00Z'),
    });
  });

  it('after downtime runs once, for the latest missed time, when it is less than its interval ago', () => {
    // Down from Tuesday before 09:00 to Friday 20:00: three times missed, one run for Friday's.
    const decision = decideDue(daily, at('2026-11-24T08:00:00Z'), at('2026-11-27T19:00:00Z'));
    expect(decision).toEqual({
      run: at('2026-11-27T08:00:00Z'),
      latest: at('2026-11-27T08:00:00Z'),
      missed: 3,
      next: at('2026-11-28T08:00:00Z'),
    });
  });

  it('does not run a missed time that is older than its interval', () => {
    // Weekdays at 09:00: Friday's time, found on Sunday, is more than a day old (the gap before it).
    const weekdays = timing('0 9 * * 1-5', 'Europe/Madrid');
    const decision = decideDue(weekdays, at('2026-11-27T08:00:00Z'), at('2026-11-29T12:00:00Z'));
    expect(decision.run).toBeNull();
    expect(decision.latest).toEqual(at('2026-11-27T08:00:00Z'));
    expect(decision.next).toEqual(at('2026-11-30T08:00:00Z'));
  });

  it('never bursts, however long the downtime of a frequent schedule', () => {
    const often = timing('*/15 * * * *', 'UTC');
    const decision = decideDue(often, at('2026-01-01T00:00:00Z'), at('2026-11-27T10:07:00Z'));
    expect(decision.run).toEqual(at('2026-11-27T10:00:00Z'));
    expect(decision.missed).toBe(100); // counted up to the cap
    expect(decision.next).toEqual(at('2026-11-27T10:15:00Z'));
  });

  it('ends with the end date', () => {
    const ending = timing('0 9 * * *', 'Europe/Madrid', '2026-11-28T00:00:00Z');
    const decision = decideDue(ending, at('2026-11-27T08:00:00Z'), at('2026-11-27T08:00:01Z'));
    expect(decision.run).toEqual(at('2026-11-27T08:00:00Z'));
    expect(decision.next).toBeNull();
  });
});

describe('checking a schedule before it is stored', () => {
  const now = at('2026-11-28T10:00:00Z');

  it('accepts every friendly kind and cron at the limit', () => {
    for (const cron of ['0 9 * * *', '0 9 * * 1-5', '15 6 1 * *', '*/15 * * * *', '0,15,30,45 * * * *']) {
      expect(() => checkTiming(timing(cron, 'Europe/Madrid'), 15, now)).not.toThrow();
    }
  });

  it('measures the shortest gap, across midnight too', () => {
    expect(shortestGapMinutes('0 9 * * *')).toBe(1440);
    expect(shortestGapMinutes('*/15 * * * *')).toBe(15);
    expect(shortestGapMinutes('0,50 9 * * *')).toBe(50);
    expect(shortestGapMinutes('59 23 * * *')).toBe(1440);
    expect(shortestGapMinutes('0,59 0,23 * * *')).toBe(1);
    expect(shortestGapMinutes('*/5 9 * * 1')).toBe(5);
  });

  it("refuses a cron that fires more often than the minimum, in the reader's language", () => {
    const r = refusal(() => checkTiming(timing('*/5 * * * *', 'UTC'), 15, now));
    expect(r.key).toBe('cronTooFrequent');
    expect(r.en).toBe('A schedule can run at most once every 15 minutes');
    expect(r.es).toBe('Una programación puede ejecutarse como mucho una vez cada 15 minutos');
    // An admin may lower the minimum to one minute.
    expect(() => checkTiming(timing('* * * * *', 'UTC'), 1, now)).not.toThrow();
  });

  it('refuses bad expressions, unknown zones, never-running and ended schedules', () => {
    for (const cron of [
      '',
      'every day',
      '0 9 * *',
      '0 0 9 * * *',
      '61 9 * * *',
      '0 25 * * *',
      'x'.repeat(200),
    ]) {
      expect(refusal(() => checkTiming(timing(cron, 'UTC'), 15, now)).key, cron).toBe('cronInvalid');
    }
    const zone = refusal(() => checkTiming(timing('0 9 * * *', 'Mars/Olympus'), 15, now));
    expect(zone.key).toBe('timezoneUnknown');
    expect(zone.es).toContain('Zona horaria desconocida "Mars/Olympus"');
    expect(refusal(() => checkTiming(timing('0 9 30 2 *', 'UTC'), 15, now)).key).toBe('cronNeverRuns');
    expect(refusal(() => checkTiming(timing('0 9 * * *', 'UTC', '2026-11-01T00:00:00Z'), 15, now)).key).toBe(
      'scheduleEndInPast',
    );
  });
});
