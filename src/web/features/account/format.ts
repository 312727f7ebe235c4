export { formatUsd } from '#shared/contract/plans';

/** The locale dates and numbers are shown in: Spanish (Spain) or English (US). */
export const localeOf = (language: string) => (language.startsWith('es') ? 'es-ES' : 'en-US');

/** A date in the current locale, or null when the server's value cannot be read ("Date unavailable"). */
export function formatDate(value: string, language: string, withTime = true): string | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(date);
}

/** A signed credit amount: "+30", "-1", "0". */
export const signedAmount = (amount: number) => (amount > 0 ? `+${amount}` : String(amount));
