import { Coins, LogOut, Menu, X } from 'lucide-react';
import { lazy, type MouseEvent, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, ScrollRestoration, useNavigate, useNavigation } from 'react-router';
import { Button } from '../components/ui/button';
import { Toaster } from '../components/ui/toast';
import { isAdminUser, useMe } from '../lib/session';
import { useRememberTimezone } from '../lib/timezone';
import { useSignOut } from '../lib/sign-out';
import { useMediaQuery } from '../lib/use-media-query';
import { cn } from '../lib/utils';
import { LanguageSwitch } from './language-switch';
import { useDocumentTitle } from './page-title';
import { VerifyEmailBanner } from './verify-email-banner';

// The modal (and the dialog library under it) loads on the first click of the credits badge.
const CreditsModal = lazy(() => import('../features/billing/credits-modal'));
// The bell (and the popover library under it) is for people signed in: a visitor's first page does without.
const LazyBell = lazy(() =>
  import('../features/notifications/bell').then((m) => ({ default: m.NotificationBell })),
);
/** The bell, with a blank of its size until it has loaded, so the header does not move. */
function NotificationBell() {
  return (
    <Suspense fallback={<span className="inline-block size-9" aria-hidden="true" />}>
      <LazyBell />
    </Suspense>
  );
}

const MAIN_ID = 'main-content';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );

export function Layout() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  // While the router fetches the next screen's code, the screen the reader left stays (decision 193).
  const loadingScreen = useNavigation().state === 'loading';
  useRememberTimezone(user);
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [creditsOpen, setCreditsOpen] = useState(false);
  const credits = user?.credits ?? 0;
  // One bell at a time (each follows the count with its own event stream): the md breakpoint of the header.
  const isDesktop = useMediaQuery('(min-width: 768px)');
  // The badge that opened the credits modal (the header has one per layout), to be focused again on close.
  const creditsOpener = useRef<HTMLButtonElement | null>(null);
  const creditsWasOpen = useRef(false);
  useDocumentTitle();

  useEffect(() => {
    if (creditsOpen) {
      creditsWasOpen.current = true;
      return;
    }
    if (!creditsWasOpen.current) return;
    creditsWasOpen.current = false;
    // The modal unmounts as it closes, so the dialog's own focus return can land on the page body; this runs
    // after it and puts keyboard users back where they were.
    const timer = window.setTimeout(() => creditsOpener.current?.focus(), 0);
    return () => window.clearTimeout(timer);
  }, [creditsOpen]);

  const skipToMain = (e: MouseEvent<HTMLAnchorElement>) => {
    // Focus moves without the hash in the address, which the router would otherwise keep on every later page.
    e.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };

  const links = user
    ? [
        { to: '/workflows', label: t('nav.workflows') },
        { to: '/my-workflows', label: t('nav.myWorkflows') },
        { to: '/saved-answers', label: t('nav.savedAnswers') },
        { to: '/schedules', label: t('nav.schedules') },
        { to: '/account', label: t('nav.account') },
        ...(isAdminUser(user) ? [{ to: '/admin', label: t('nav.admin') }] : []),
      ]
    : [];

  const doSignOut = () => {
    setMenuOpen(false);
    signOut.mutate(undefined, { onSettled: () => void navigate('/') });
  };

  const creditsBadge = user ? (
    <button
      type="button"
      onClick={(e) => {
        creditsOpener.current = e.currentTarget;
        setCreditsOpen(true);
      }}
      aria-label={t('nav.creditsButton', { count: credits })}
      data-testid="credits-badge"
      className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-3 py-1.5 text-sm font-semibold text-amber-900 hover:bg-amber-200"
    >
      <Coins className="size-4" aria-hidden="true" />
      <span>{credits}</span>
    </button>
  ) : null;

  return (
    <div className="flex min-h-screen flex-col">
      {/* A line across the top while the next screen's code loads: the click was taken (on a slow network that can
          take a moment). Still, so it repaints nothing meanwhile; `<main>` tells screen readers (aria-busy). */}
      {loadingScreen ? (
        <div
          aria-hidden="true"
          data-testid="screen-loading"
          className="fixed inset-x-0 top-0 z-50 h-1 bg-brand-600"
        />
      ) : null}
      <a
        href={`#${MAIN_ID}`}
        onClick={skipToMain}
        data-testid="skip-link"
        // Parked above the window until focused, so it is the first stop of the keyboard but never in sight otherwise.
        className="fixed left-4 top-3 z-50 -translate-y-24 rounded-md bg-white px-4 py-2 font-semibold text-brand-800 shadow-lg ring-2 ring-brand-600 focus:translate-y-0"
      >
        {t('skipToContent')}
      </a>
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900">
            <img src="/favicon.svg" alt="" className="size-7" />
            {t('pages:brand')}
          </Link>
          <nav aria-label={t('nav.mainNavigation')} className="hidden flex-1 items-center gap-1 md:flex">
            {links.map((l) => (
              <NavLink key={l.to} to={l.to} end={l.to === '/admin' ? false : undefined} className={linkClass}>
                {l.label}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto hidden items-center gap-3 md:flex">
            {user ? (
              <>
                {user.fullName ? (
                  <span className="hidden text-sm font-medium text-slate-800 lg:inline">{user.fullName}</span>
                ) : null}
                {creditsBadge}
                {isDesktop ? <NotificationBell /> : null}
                <LanguageSwitch />
                <Button variant="ghost" size="sm" onClick={doSignOut}>
                  <LogOut className="size-4" aria-hidden="true" />
                  {t('nav.signOut')}
                </Button>
              </>
            ) : (
              <>
                <LanguageSwitch />
                <Button asChild variant="ghost" size="sm">
                  <Link to="/signin">{t('nav.signIn')}</Link>
                </Button>
                <Button asChild size="sm">
                  <Link to="/signup">{t('nav.signUp')}</Link>
                </Button>
              </>
            )}
          </div>
          <div className="ml-auto flex items-center gap-2 md:hidden">
            {creditsBadge}
            {user && !isDesktop ? <NotificationBell /> : null}
            <button
              type="button"
              className="rounded-md p-2 text-slate-800 hover:bg-slate-100"
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
              onClick={() => setMenuOpen((o) => !o)}
            >
              {menuOpen ? (
                <X className="size-6" aria-hidden="true" />
              ) : (
                <Menu className="size-6" aria-hidden="true" />
              )}
            </button>
          </div>
        </div>
        {menuOpen ? (
          <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pb-4 pt-2 md:hidden">
            {user ? (
              <p className="px-3 py-2 text-sm font-semibold text-slate-900">{user.fullName || user.email}</p>
            ) : null}
            <nav aria-label={t('nav.mainNavigation')} className="flex flex-col gap-1">
              {links.map((l) => (
                <NavLink key={l.to} to={l.to} className={linkClass} onClick={() => setMenuOpen(false)}>
                  {l.label}
                </NavLink>
              ))}
              {user ? null : (
                <>
                  <NavLink to="/signin" className={linkClass} onClick={() => setMenuOpen(false)}>
                    {t('nav.signIn')}
                  </NavLink>
                  <NavLink to="/signup" className={linkClass} onClick={() => setMenuOpen(false)}>
                    {t('nav.signUp')}
                  </NavLink>
                </>
              )}
            </nav>
            <div className="mt-3 flex items-center justify-between px-3">
              <LanguageSwitch />
              {user ? (
                <Button variant="ghost" size="sm" onClick={doSignOut}>
                  <LogOut className="size-4" aria-hidden="true" />
                  {t('nav.signOut')}
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
      </header>
      <VerifyEmailBanner />
      {/* At least a screen's height below the header: the footer starts under the fold, so a screen that grows as
          its chunk and data arrive pushes nothing the reader sees (no layout shift). */}
      <main
        id={MAIN_ID}
        tabIndex={-1}
        aria-busy={loadingScreen || undefined}
        className="min-h-[calc(100vh-4rem)] flex-1 focus:outline-none"
      >
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-700">
        {t('footer')}
      </footer>
      {user && creditsOpen ? (
        <Suspense fallback={null}>
          <CreditsModal open onOpenChange={setCreditsOpen} credits={credits} />
        </Suspense>
      ) : null}
      <Toaster label={t('notifications')} />
      {/* A new page opens at its top; Back and Forward return to where the reader was, as browsers do. */}
      <ScrollRestoration />
    </div>
  );
}
