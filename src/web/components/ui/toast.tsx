import { Toaster as Sonner, toast as sonner } from 'sonner';

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

const TOAST_MS = 5000;

/** Shows a toast bottom right for 5 seconds (or until closed). */
export function toast({ title, description, variant = 'default' }: ToastInput): void {
  const options = { duration: TOAST_MS, ...(description ? { description } : {}) };
  if (variant === 'success') sonner.success(title, options);
  else if (variant === 'destructive') sonner.error(title, options);
  else sonner(title, options);
}

export function Toaster({ label }: { label: string }) {
  return (
    <Sonner
      position="bottom-right"
      closeButton
      richColors
      duration={TOAST_MS}
      toastOptions={{ closeButton: true }}
      containerAriaLabel={label}
    />
  );
}
