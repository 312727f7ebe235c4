import { describe, expect, it } from 'vitest';
import { dateLocale, formatRunDate } from './format-run-date';

describe('formatRunDate', () => {
  it('picks es-ES for any Spanish and en-US otherwise', () => {
    expect(dateLocale('es')).toBe('es-ES');
    expect(dateLocale('es-MX')).toBe('es-ES');
    expect(dateLocale('en')).toBe('en-US');
    expect(dateLocale(undefined)).toBe('en-US');
  });
  it('writes the date the way each locale does', () => {
    const iso = '2026-03-07T15:04:00Z';
    const expectedEs = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );
    expect(formatRunDate(iso, 'es')).toBe(expectedEs);
    expect(formatRunDate(iso, 'es')).toMatch(/mar/);
    expect(formatRunDate(iso, 'en')).toMatch(/Mar 7, 2026/);
  });
  it('gives null for a value that is not a date', () => {
    expect(formatRunDate('not a date', 'en')).toBeNull();
  });
});
