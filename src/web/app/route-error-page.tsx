import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../components/ui/button';

/**
 * What a screen shows when it throws while loading or rendering (a chunk of a newer deploy that is gone, a
 * bug): a plain explanation and two ways on, instead of the router's developer screen. Its words live in
 * the namespace of the first bundle, so it can still speak when a screen's own translations failed to load.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The screen changed under the reader: focus moves to its heading so a screen reader starts there.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center" role="alert" data-testid="route-error">
      <TriangleAlert className="mx-auto size-12 text-red-700" aria-hidden="true" />
      <h1 ref={heading} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 outline-none">
        {t('routeError.title')}
      </h1>
      <p className="mt-2 text-slate-700">{t('routeError.body')}</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
        <Button asChild variant="secondary">
          <Link to="/">{t('routeError.home')}</Link>
        </Button>
      </div>
    </div>
  );
}
