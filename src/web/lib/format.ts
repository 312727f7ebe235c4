import { currentLanguage } from '../i18n';

/** The locale numbers and dates are written in for the UI language. */
export const uiLocale = (): string => (currentLanguage() === 'es' ? 'es-ES' : 'en-GB');

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(uiLocale()).format(value);
}
