import type { HTMLAttributes, ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '#web/lib/utils';

const TONES = {
  success: 'border-green-200 bg-green-50 text-green-900',
  danger: 'border-red-300 bg-red-50 text-red-900',
} as const;

/**
 * A boxed message with an icon: an outcome (`success`) or a refusal (`danger`). Give it `role="status"` or
 * `role="alert"` as fits. `compact` is the smaller one that sits inside a card.
 */
export function Callout({
  tone,
  icon: Icon,
  compact,
  className,
  children,
  ...props
}: Omit<HTMLAttributes<HTMLDivElement>, 'children'> & {
  tone: keyof typeof TONES;
  icon: LucideIcon;
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'flex rounded-lg border',
        compact ? 'gap-2 p-3 text-sm' : 'gap-3 p-4',
        TONES[tone],
        className,
      )}
      {...props}
    >
      <Icon className={cn('mt-0.5 shrink-0', compact ? 'size-4' : 'size-5')} aria-hidden="true" />
      <p className={cn('min-w-0 break-words', !compact && 'text-sm font-medium')}>{children}</p>
    </div>
  );
}

/** The line of a warning banner: an icon, a bold title, then what it means. */
export function BannerMessage({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <p className="flex items-start gap-2 text-sm text-amber-950">
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        <strong className="font-semibold">{title}</strong> {children}
      </span>
    </p>
  );
}
