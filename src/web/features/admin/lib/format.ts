import { formatNumber, uiLocale } from '#web/lib/format';

/** A date and time in the UI language; '—' when missing or unparseable. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A signed amount: +5, −3 (a real minus sign reads better than a hyphen). */
export function formatSigned(value: number): string {
  const abs = formatNumber(Math.abs(value));
  if (value > 0) return `+${abs}`;
  if (value < 0) return `−${abs}`;
  return abs;
}
