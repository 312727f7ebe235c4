import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cn } from '#web/lib/utils';
import { Button, type ButtonProps } from './button';

type LinkWithIcon = LinkProps & {
  /** Drawn before the text, hidden from screen readers (the text names the link). */
  icon?: LucideIcon;
};

/** A router link with a button's looks. */
export function LinkButton({
  icon: Icon,
  variant,
  size,
  className,
  children,
  ...link
}: LinkWithIcon & Pick<ButtonProps, 'variant' | 'size'>) {
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link {...link}>
        {Icon ? <Icon className={size === 'lg' ? 'size-5' : 'size-4'} aria-hidden="true" /> : null}
        {children}
      </Link>
    </Button>
  );
}

/** The way back from a page that ends (a result, a missing workflow): a secondary button with an arrow. */
export function BackButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <LinkButton to={to} variant="secondary" icon={ArrowLeft}>
      {children}
    </LinkButton>
  );
}

/** A router link in running text or above a page's title ("back to ..."), its icon before the text. */
export function IconLink({ icon: Icon, className, children, ...link }: LinkWithIcon) {
  return (
    <Link
      {...link}
      className={cn(
        'inline-flex items-center gap-1 rounded text-sm font-medium text-brand-700 underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
        className,
      )}
    >
      {Icon ? <Icon className="size-4" aria-hidden="true" /> : null}
      {children}
    </Link>
  );
}
