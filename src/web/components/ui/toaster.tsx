import { useEffect } from 'react';
import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useMediaQuery } from '#web/lib/use-media-query';
import type { ToastInput } from './toast';
import { EDGE_PX, RESERVE_VAR } from './toast-layout';

// The toast library, loaded with the first toast (toast.tsx): no screen needs it to appear.

const TOAST_MS = 5000;
/** The width up to which the toast library lays toasts out full width; there they go to the top. */
const PHONE_QUERY = '(max-width: 600px)';
/** Below the sticky header (4rem), so the header's controls stay reachable too. */
const PHONE_TOP_PX = 72;

/** Shows a toast for 5 seconds (or until closed): at the top on phones, bottom right elsewhere. */
function show({ title, description, variant = 'default' }: ToastInput): void {
  const options = { duration: TOAST_MS, ...(description ? { description } : {}) };
  if (variant === 'success') sonner.success(title, options);
  else if (variant === 'destructive') sonner.error(title, options);
  else sonner(title, options);
}

export default function SonnerToaster({
  label,
  onReady,
}: {
  label: string;
  /** Called once the toasts' live region is on the page (null when it leaves), with the way to show one. */
  onReady: (showToast: ((input: ToastInput) => void) | null) => void;
}) {
  const phone = useMediaQuery(PHONE_QUERY);
  // After the library's own effects (children's run first): its region is there to announce what comes next.
  useEffect(() => {
    onReady(show);
    return () => onReady(null);
  }, [onReady]);
  return (
    <Sonner
      // On a phone the bottom holds the message box and the main buttons, so toasts drop from the top.
      position={phone ? 'top-center' : 'bottom-right'}
      offset={{ right: EDGE_PX, bottom: `calc(var(${RESERVE_VAR}, 0px) + ${EDGE_PX}px)` }}
      mobileOffset={{ top: PHONE_TOP_PX, left: 16, right: 16 }}
      closeButton
      richColors
      duration={TOAST_MS}
      toastOptions={{ closeButton: true }}
      containerAriaLabel={label}
      // Both languages read left to right; unnamed, the library reads the page's computed direction at every render.
      dir="ltr"
    />
  );
}
