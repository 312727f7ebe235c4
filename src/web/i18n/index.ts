import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

export const SUPPORTED_LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

type Bundle = Record<string, unknown>;
// Every namespace except admin ships with the first page; admin comes with the admin screens' own chunk.
const files = import.meta.glob<Bundle>(['./locales/*/*.json', '!./locales/*/admin.json'], {
  eager: true,
  import: 'default',
});

const resources: Record<string, Record<string, Bundle>> = {};
for (const [path, bundle] of Object.entries(files)) {
  const match = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {})[ns] = bundle;
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    fallbackLng: 'en',
    defaultNS: 'common',
    ns: Object.keys(resources.en ?? {}),
    interpolation: { escapeValue: false },
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: 'lng',
      lookupLocalStorage: 'lng',
      lookupSessionStorage: 'lng',
      caches: ['localStorage'],
    },
  });

function syncHtmlLang(): void {
  document.documentElement.lang = currentLanguage();
}
i18n.on('languageChanged', syncHtmlLang);
syncHtmlLang();

/** The UI language: 'es' for any Spanish variant, else 'en'. */
export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'es' ? 'es' : 'en';
}

/** Adds a namespace that is not in the first bundle (the admin screens load theirs). */
export function addNamespace(ns: string, bundles: Record<Language, Bundle>): void {
  for (const lng of SUPPORTED_LANGUAGES) i18n.addResourceBundle(lng, ns, bundles[lng], true, true);
}

export default i18n;
