import type { FormEvent, ReactNode } from 'react';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';

export function AuthFormShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-16">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-700">{subtitle}</p>
        <div className="mt-6">{children}</div>
      </Card>
      {footer ? <p className="mt-6 text-center text-sm text-slate-700">{footer}</p> : null}
    </div>
  );
}

function ErrorBanner({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
    >
      {message}
    </div>
  );
}

/** An auth page's form: the server's refusal above it, its fields, and one full-width submit button. */
export function AuthForm({
  onSubmit,
  error,
  pending,
  submitLabel,
  pendingLabel,
  children,
}: {
  onSubmit(e: FormEvent): void;
  error: string | null;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      {error ? <ErrorBanner message={error} /> : null}
      <form onSubmit={onSubmit} className="space-y-4">
        {children}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </form>
    </>
  );
}
