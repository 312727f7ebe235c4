import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatNumber, formatSigned, localeFor } from './format';

describe('one format per language', () => {
  it('maps any Spanish variant to es-ES and everything else to en-US', () => {
    expect(localeFor('es')).toBe('es-ES');
    expect(localeFor('es-MX')).toBe('es-ES');
    expect(localeFor('en')).toBe('en-US');
    expect(localeFor(undefined)).toBe('en-US');
  });

  it('writes dates the same way for the user and the admin screens', () => {
    const at = '2026-11-23T10:05:00Z';
    expect(formatDate(at, { language: 'en', time: false })).toBe('Nov 23, 2026');
    expect(formatDate(at, { language: 'es', time: false })).toBe('23 nov 2026');
    expect(formatDateTime(at, 'en')).toBe(formatDate(at, { language: 'en' }));
    expect(formatDateTime(null, 'en')).toBe('—');
    expect(formatDateTime('not a date', 'es')).toBe('—');
    expect(formatDate('not a date', { language: 'es' })).toBeNull();
  });

  it('writes numbers, signed amounts and chart days per language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(1234567, 'es')).toBe('1.234.567');
    expect(formatSigned(-1500, 'en')).toBe('−1,500');
    expect(formatSigned(5, 'es')).toBe('+5');
    expect(formatDay('2026-11-23', 'en')).toBe('Nov 23');
    expect(formatDay('2026-11-23', 'es')).toBe('23 nov');
  });
});
