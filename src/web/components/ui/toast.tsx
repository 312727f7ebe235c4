import { useQueryClient } from '@tanstack/react-query';
import { lazy, type RefObject, Suspense, useEffect, useSyncExternalStore } from 'react';
import { EDGE_PX, RESERVE_VAR } from './toast-layout';

type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

/** How far up from the window's bottom edge toasts reach (a few stacked), so controls above it are never covered. */
const TOAST_ZONE_PX = 200;

// The toast library (about 10 kB compressed) is not part of the first screen: a toast only ever answers
// something the person did. It loads when the first change (a mutation) starts, so it is on the page, its
// live region ready, by the time the change's answer raises a toast; or else with the first toast, which
// then waits for it (toasts asked for meanwhile are shown in order).
const SonnerToaster = lazy(() => import('./toaster'));
let wanted = false;
const onWanted = new Set<() => void>();
let waiting: ToastInput[] = [];
let shown: ((input: ToastInput) => void) | null = null;

function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  onWanted.forEach((notify) => notify());
}

function toasterReady(show: ((input: ToastInput) => void) | null): void {
  shown = show;
  if (!show) return;
  const queued = waiting;
  waiting = [];
  queued.forEach(show);
}

/** Shows a toast for 5 seconds (or until closed): at the top on phones, bottom right elsewhere. */
export function toast(input: ToastInput): void {
  if (shown) {
    shown(input);
    return;
  }
  waiting.push(input);
  wantToaster();
}

/**
 * Keeps toasts above an element near the window's bottom edge (a chat composer, a form's main button) on screens
 * where they sit bottom right: while the element's top is within the toasts' reach, they move up past it.
 */
export function useToastClearance(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = document.documentElement;
    let reserve: string | undefined;
    const update = () => {
      const el = ref.current;
      if (!el) return;
      const { top, bottom } = el.getBoundingClientRect();
      const onView = bottom > 0 && top < window.innerHeight;
      const inReach = onView && top > window.innerHeight - TOAST_ZONE_PX - EDGE_PX;
      const next = inReach ? `${Math.ceil(window.innerHeight - top)}px` : '0px';
      // Any write to the root's style restyles the whole page, and a chat's log scrolls at every word.
      if (next === reserve) return;
      reserve = next;
      root.style.setProperty(RESERVE_VAR, next);
    };
    update();
    // Test environments without layout have no ResizeObserver; scroll and resize still update.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    if (ref.current) observer?.observe(ref.current);
    window.addEventListener('scroll', update, { passive: true, capture: true });
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      window.removeEventListener('scroll', update, { capture: true });
      window.removeEventListener('resize', update);
      root.style.removeProperty(RESERVE_VAR);
    };
  }, [ref]);
}

/** Where toasts appear; it loads the toast library with the first change or the first toast. */
export function Toaster({ label }: { label: string }) {
  const client = useQueryClient();
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type === 'added') wantToaster();
      }),
    [client],
  );
  const show = useSyncExternalStore(
    (notify) => {
      onWanted.add(notify);
      return () => onWanted.delete(notify);
    },
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster label={label} onReady={toasterReady} />
    </Suspense>
  );
}
