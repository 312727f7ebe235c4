// The shared i18next instance, not '../i18n': formatting needs only the language, not the setup's side effects
// (the DOM, the locale bundles), so these helpers stay testable anywhere.
import i18next from 'i18next';
import { formatRoughDuration } from '#shared/i18n/durations.js';

/**
 * The one locale per UI language that every screen, user and admin alike, writes numbers and dates in. English
 * uses the US forms ("Nov 23, 2026", "1,234") so a date reads the same in the history, the account and the admin
 * tables.
 */
export const localeFor = (language: string | undefined): 'es-ES' | 'en-US' =>
  language?.startsWith('es') ? 'es-ES' : 'en-US';

/** The locale numbers and dates are written in for the current UI language. */
const uiLocale = (): string => localeFor(i18next.resolvedLanguage ?? i18next.language);

export function formatNumber(value: number, language?: string): string {
  return new Intl.NumberFormat(language ? localeFor(language) : uiLocale()).format(value);
}

/** A signed amount: +5, −3 (a real minus sign reads better than a hyphen). */
export function formatSigned(value: number, language?: string): string {
  const abs = formatNumber(Math.abs(value), language);
  if (value > 0) return `+${abs}`;
  if (value < 0) return `−${abs}`;
  return abs;
}

/** A date (with its time unless `time` is false), or null when the value is missing or not a date. */
export function formatDate(
  value: string | Date | null | undefined,
  { time = true, language }: { time?: boolean; language?: string } = {},
): string | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(language ? localeFor(language) : uiLocale(), {
    dateStyle: 'medium',
    ...(time ? { timeStyle: 'short' } : {}),
  }).format(date);
}

/** A date and time for tables and details; '—' when missing or unparseable. */
export function formatDateTime(value: string | Date | null | undefined, language?: string): string {
  return formatDate(value, { language }) ?? '—';
}

/** "Nov 23" / "23 nov": a day of a YYYY-MM-DD series, read as a UTC date (the chart axes). */
export function formatDay(day: string, language?: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(language ? localeFor(language) : uiLocale(), {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(date);
}

/** A rough time in the UI's language, or in `language` (shared/i18n/durations.ts). */
export function formatDuration(ms: number, language?: string): string {
  return formatRoughDuration(ms, language ? localeFor(language) : uiLocale());
}
