import { useSyncExternalStore } from 'react';

// Browsers all have matchMedia; test DOMs may not, and there no query matches.
const hasMatchMedia = () => typeof window.matchMedia === 'function';

/** Whether a CSS media query matches now, updated as the window changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (!hasMatchMedia()) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => hasMatchMedia() && window.matchMedia(query).matches,
    () => true,
  );
}
