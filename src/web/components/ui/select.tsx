import type { SelectHTMLAttributes } from 'react';
import { cn } from '#web/lib/utils';

/** A native select styled like the inputs (native keeps phones and screen readers happy). */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-slate-100',
        className,
      )}
      {...props}
    />
  );
}
