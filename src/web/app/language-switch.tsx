import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { cn } from '../lib/utils';
import { currentLanguage, SUPPORTED_LANGUAGES } from '../i18n';

/**
 * ES | EN; the choice applies at once and is remembered in localStorage under `lng`. An address that names its
 * language (`?lng=`, decision 135) is changed with it, so that reloading or sharing it keeps the choice.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const active = currentLanguage();
  return (
    <div
      role="group"
      aria-label={t('nav.language')}
      className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 text-xs font-semibold"
    >
      {[...SUPPORTED_LANGUAGES].reverse().map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          aria-pressed={active === lng}
          onClick={() => {
            void i18n.changeLanguage(lng);
            localStorage.setItem('lng', lng);
            if (params.has('lng')) {
              setParams(
                (current) => {
                  current.set('lng', lng);
                  return current;
                },
                { replace: true },
              );
            }
          }}
          className={cn(
            'rounded-md px-2 py-1 uppercase',
            active === lng ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100',
          )}
        >
          {lng}
        </button>
      ))}
    </div>
  );
}
