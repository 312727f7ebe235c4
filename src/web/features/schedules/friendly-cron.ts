/**
 * The schedule screen's friendly choices and the 5-field cron expression they stand for. The server reads
 * only the expression; the choices are found back from it when a schedule is edited (anything else is shown
 * in the advanced field).
 */
export type FriendlyKind = 'daily' | 'weekdays' | 'monthly' | 'cron';

export interface FriendlyChoice {
  kind: FriendlyKind;
  /** "HH:mm", 24-hour. */
  time: string;
  /** Days of the week (0 Sunday … 6 Saturday), for `weekdays`. */
  weekdays: number[];
  /** Day of the month (1-31), for `monthly`; months without it are passed over. */
  dayOfMonth: number;
  /** The expression itself, for `cron`. */
  cron: string;
}

export const DEFAULT_CHOICE: FriendlyChoice = {
  kind: 'daily',
  time: '09:00',
  weekdays: [1, 2, 3, 4, 5],
  dayOfMonth: 1,
  cron: '0 9 * * *',
};

/** Monday first, as both languages' calendars show the week. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

function hourMinute(time: string): [number, number] | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? [hour, minute] : null;
}

/** The expression of a choice, or null when the choice is incomplete (no time, no weekday chosen). */
export function cronOf(choice: FriendlyChoice): string | null {
  if (choice.kind === 'cron') return choice.cron.trim() || null;
  const hm = hourMinute(choice.time);
  if (!hm) return null;
  const [hour, minute] = hm;
  if (choice.kind === 'daily') return `${minute} ${hour} * * *`;
  if (choice.kind === 'monthly') {
    const day = Math.trunc(choice.dayOfMonth);
    return day >= 1 && day <= 31 ? `${minute} ${hour} ${day} * *` : null;
  }
  const days = [...new Set(choice.weekdays)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  return days.length > 0 ? `${minute} ${hour} * * ${days.join(',')}` : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The friendly choice an expression was built from, or the advanced field with it. */
export function choiceOf(cron: string): FriendlyChoice {
  const advanced = { ...DEFAULT_CHOICE, kind: 'cron' as const, cron };
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return advanced;
  const [minute, hour, dom, month, dow] = parts as [string, string, string, string, string];
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || month !== '*') return advanced;
  const time = `${pad(Number(hour))}:${pad(Number(minute))}`;
  if (!hourMinute(time)) return advanced;
  const base = { ...DEFAULT_CHOICE, time, cron };
  if (dom === '*' && dow === '*') return { ...base, kind: 'daily' };
  if (dom === '*' && /^\d(,\d)*$/.test(dow)) {
    const weekdays = dow.split(',').map(Number);
    if (weekdays.every((d) => d <= 6)) return { ...base, kind: 'weekdays', weekdays };
  }
  if (/^\d{1,2}$/.test(dom) && dow === '*' && Number(dom) >= 1 && Number(dom) <= 31) {
    return { ...base, kind: 'monthly', dayOfMonth: Number(dom) };
  }
  return advanced;
}

/**
 * The instant an end date ("YYYY-MM-DD", the last day runs may happen) stops at: the start of the next day
 * in the schedule's time zone.
 */
export function endOfDay(date: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const guess = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1);
  // The zone's offset at that moment, read back from its wall clock (twice, to settle across a change).
  let instant = guess;
  for (let i = 0; i < 2; i += 1) instant = guess - offsetMs(instant, timeZone);
  return new Date(instant).toISOString();
}

function offsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The date ("YYYY-MM-DD") an end instant closes, in the schedule's zone (the day before it starts). */
export function endDateOf(endsAt: string, timeZone: string): string {
  const lastMoment = new Date(new Date(endsAt).getTime() - 1);
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(lastMoment);
}
