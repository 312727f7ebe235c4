import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { ERROR_TEXTS } from '#shared/i18n/errors';
import { PAGE_TEXTS } from '#shared/i18n/pages';

export const SUPPORTED_LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

type Bundle = Record<string, unknown>;
/**
 * Namespaces the first screens (shell, home, sign-in, sign-up, credits modal) need; they ship in the first
 * bundle. `errors` is the server's own catalogue of error texts and `pages` the pages' titles and descriptions,
 * which the server writes into each page's head (src/shared/i18n), so both say the same.
 */
const CORE_NAMESPACES = ['common', 'home', 'auth', 'billing', 'errors', 'pages'];

const eager = import.meta.glob<Bundle>('./locales/*/{common,home,auth,billing}.json', {
  eager: true,
  import: 'default',
});
// Every other namespace becomes its own small chunk, fetched the first time a screen asks for it.
const lazyFiles = import.meta.glob<Bundle>(
  ['./locales/*/*.json', '!./locales/*/{common,home,auth,billing}.json'],
  { import: 'default' },
);

const resources: Record<string, Record<string, Bundle>> = {};
for (const [path, bundle] of Object.entries(eager)) {
  const match = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {})[ns] = bundle;
}
for (const lng of SUPPORTED_LANGUAGES) {
  resources[lng] ??= {};
  resources[lng].errors = ERROR_TEXTS[lng];
  resources[lng].pages = PAGE_TEXTS[lng];
}

const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = lazyFiles[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (bundle) => callback(null, bundle as ResourceKey),
      (err: unknown) => callback(err instanceof Error ? err.message : 'failed to load translations', false),
    );
  },
};

void i18n
  .use(lazyBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    // Core namespaces come bundled; the others are read through the lazy backend on first use.
    partialBundledLanguages: true,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    fallbackLng: 'en',
    defaultNS: 'common',
    ns: CORE_NAMESPACES,
    interpolation: { escapeValue: false },
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: 'lng',
      lookupLocalStorage: 'lng',
      lookupSessionStorage: 'lng',
      // The cookie tells the server the reader's language too: its error texts and mails follow it.
      caches: ['localStorage', 'cookie'],
      cookieMinutes: 60 * 24 * 365,
      cookieOptions: { path: '/', sameSite: 'lax' },
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

export default i18n;
