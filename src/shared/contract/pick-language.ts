/** Display rule for bilingual text: current language, then en, then es, then empty. */
export function pickLanguage(
  text: Partial<Record<'es' | 'en', string>> | null | undefined,
  lng: string,
): string {
  if (!text) return '';
  const current = lng.startsWith('es') ? text.es : text.en;
  return current || text.en || text.es || '';
}
