/** The locale the history's dates use: es-ES for Spanish, en-US for English. */
export function dateLocale(lng: string | undefined): 'es-ES' | 'en-US' {
  return lng?.startsWith('es') ? 'es-ES' : 'en-US';
}

/** A run's date and time in the reader's locale, or null when the stored value is not a date. */
export function formatRunDate(iso: string, lng: string | undefined): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(dateLocale(lng), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
