import { Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';

/** Sits over the blurred grid and invites a visitor to sign up or sign in. */
export function AnonymousOverlay() {
  const { t } = useTranslation('catalogue');
  return (
    <div className="absolute inset-0 z-10 flex items-start justify-center px-4 pt-16 sm:pt-24">
      <div
        role="region"
        aria-labelledby="catalogue-locked-title"
        className="w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-center shadow-xl sm:p-8"
      >
        <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Lock className="size-6" aria-hidden="true" />
        </div>
        <h2 id="catalogue-locked-title" className="mt-4 text-xl font-bold text-slate-900">
          {t('locked.title')}
        </h2>
        <p className="mt-2 text-sm leading-6 text-slate-700">{t('locked.body')}</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button asChild>
            <Link to="/signup">{t('locked.signUp')}</Link>
          </Button>
          <Button asChild variant="secondary">
            <Link to="/signin">{t('locked.signIn')}</Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
