import { describe, expect, it } from 'vitest';
import { formatDate, formatUsd, signedAmount } from './format';

describe('history formatting', () => {
  it('shows a date in the reader’s locale', () => {
    expect(formatDate('2026-11-23T10:05:00Z', 'en', false)).toBe('Nov 23, 2026');
    expect(formatDate('2026-11-23T10:05:00Z', 'es', false)).toBe('23 nov 2026');
  });

  it.each([['not a date'], [''], ['2026-13-45T99:00:00Z']])(
    'gives null for the unreadable date "%s"',
    (value) => {
      expect(formatDate(value, 'en')).toBeNull();
    },
  );

  it('signs amounts: positive with +, negative with -', () => {
    expect(signedAmount(30)).toBe('+30');
    expect(signedAmount(-1)).toBe('-1');
    expect(signedAmount(0)).toBe('0');
  });

  it('prints whole-dollar prices without cents and others with them', () => {
    expect(formatUsd(12, 'en')).toBe('$12');
    expect(formatUsd('12.00', 'en')).toBe('$12');
    expect(formatUsd(0.35, 'en')).toBe('$0.35');
    expect(formatUsd(60, 'es')).toMatch(/^60\s?US\$$/);
  });
});
