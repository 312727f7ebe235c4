import { describe, expect, it } from 'vitest';
import { choiceOf, cronOf, DEFAULT_CHOICE, endDateOf, endOfDay } from './friendly-cron';

describe('friendly choices and their cron expression', () => {
  it('builds every kind', () => {
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'daily', time: '07:05' })).toBe('5 7 * * *');
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'weekdays', time: '18:30', weekdays: [5, 1, 3, 1] })).toBe(
      '30 18 * * 1,3,5',
    );
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'monthly', time: '00:00', dayOfMonth: 31 })).toBe('0 0 31 * *');
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'cron', cron: ' */30 * * * * ' })).toBe('*/30 * * * *');
  });

  it('refuses incomplete choices', () => {
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'weekdays', weekdays: [] })).toBeNull();
    expect(cronOf({ ...DEFAULT_CHOICE, time: '' })).toBeNull();
    expect(cronOf({ ...DEFAULT_CHOICE, time: '25:00' })).toBeNull();
    expect(cronOf({ ...DEFAULT_CHOICE, kind: 'monthly', dayOfMonth: 32 })).toBeNull();
  });

  it('finds the choice back from its expression, or keeps the advanced field', () => {
    for (const choice of [
      { ...DEFAULT_CHOICE, kind: 'daily' as const, time: '09:00' },
      { ...DEFAULT_CHOICE, kind: 'weekdays' as const, time: '18:30', weekdays: [1, 3, 5] },
      { ...DEFAULT_CHOICE, kind: 'monthly' as const, time: '06:15', dayOfMonth: 15 },
    ]) {
      const cron = cronOf(choice)!;
      expect(choiceOf(cron)).toMatchObject({ kind: choice.kind, time: choice.time, cron });
    }
    expect(choiceOf('*/20 8-9 * * 1-5')).toMatchObject({ kind: 'cron', cron: '*/20 8-9 * * 1-5' });
    expect(choiceOf('0 9 1 1 *').kind).toBe('cron');
  });

  it("ends at the start of the day after the end date, in the schedule's zone", () => {
    expect(endOfDay('2026-12-31', 'Europe/Madrid')).toBe('2026-12-31T23:00:00.000Z');
    expect(endOfDay('2026-07-31', 'Europe/Madrid')).toBe('2026-07-31T22:00:00.000Z');
    expect(endOfDay('2026-11-30', 'America/New_York')).toBe('2026-12-01T05:00:00.000Z');
    expect(endDateOf('2026-12-31T23:00:00.000Z', 'Europe/Madrid')).toBe('2026-12-31');
    expect(endOfDay('31/12/2026', 'UTC')).toBeNull();
  });
});
