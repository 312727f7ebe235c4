import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { FormError } from '#web/components/ui/form-field';

type AuthTexts = 'signin' | 'signup' | 'forgot' | 'reset';

/**
 * An auth page's card: a title and subtitle (`<texts>.title` and `<texts>.subtitle` in auth, or given), its
 * content, and a line under it.
 */
export function AuthFormShell(
  props: { children: ReactNode; footer?: ReactNode } & (
    { texts: AuthTexts } | { title: string; subtitle: string }
  ),
) {
  const { t } = useTranslation('auth');
  const { children, footer } = props;
  const [title, subtitle] =
    'texts' in props
      ? [t(`${props.texts}.title`), t(`${props.texts}.subtitle`)]
      : [props.title, props.subtitle];
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

/**
 * The link under an auth page's card to the page a visitor in the wrong place wants (sign in, sign up), after
 * its `lead` ("No account yet?").
 */
export function AuthFooterLink({ lead, to, children }: { lead?: string; to: string; children: ReactNode }) {
  return (
    <>
      {lead ? `${lead} ` : null}
      <Link to={to} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        {children}
      </Link>
    </>
  );
}

/**
 * An auth page's form: the server's refusal above it, its fields, and one full-width submit button, labelled
 * `<texts>.submit` and `<texts>.submitting` (auth) while the request is on its way.
 */
export function AuthForm({
  texts,
  onSubmit,
  error,
  pending,
  children,
}: {
  texts: AuthTexts;
  /** Called instead of the browser's own submit. */
  onSubmit(): void;
  error: string | null;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      <FormError message={error} className="mb-4" />
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onSubmit();
        }}
        className="space-y-4"
      >
        {children}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? t(`${texts}.submitting`) : t(`${texts}.submit`)}
        </Button>
      </form>
    </>
  );
}
