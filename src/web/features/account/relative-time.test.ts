import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const NOW = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('relativeTime', () => {
  it.each([
    [0, { unit: 'underHour' }],
    [59 * MIN, { unit: 'underHour' }],
    [HOUR, { unit: 'hours', count: 1 }],
    [119 * MIN, { unit: 'hours', count: 1 }],
    [2 * HOUR, { unit: 'hours', count: 2 }],
    [23 * HOUR + 59 * MIN, { unit: 'hours', count: 23 }],
    [DAY, { unit: 'days', count: 1 }],
    [47 * HOUR, { unit: 'days', count: 1 }],
    [2 * DAY, { unit: 'days', count: 2 }],
    [400 * DAY, { unit: 'days', count: 400 }],
  ])('%i ms ago is %o', (ms, expected) => {
    expect(relativeTime(ago(ms), NOW)).toEqual(expected);
  });

  it('treats a time slightly in the future as under an hour', () => {
    expect(relativeTime(new Date(NOW.getTime() + 5 * MIN).toISOString(), NOW)).toEqual({ unit: 'underHour' });
  });

  it('gives null for an unreadable date', () => {
    expect(relativeTime('not a date', NOW)).toBeNull();
  });
});
