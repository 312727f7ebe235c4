import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { FormError } from '#web/components/ui/form-field';
import { cn } from '#web/lib/utils';

/** One block of the settings: a titled card, optionally in the danger style. */
export function SettingsCard({
  id,
  title,
  description,
  children,
  danger,
  className,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  danger?: boolean;
  className?: string;
}) {
  return (
    <Card
      role="group"
      aria-labelledby={`${id}-title`}
      className={cn('flex flex-col p-6', danger && 'border-red-200', className)}
      data-testid={id}
    >
      <h3
        id={`${id}-title`}
        className={cn('text-lg font-semibold', danger ? 'text-red-800' : 'text-slate-900')}
      >
        {title}
      </h3>
      {description ? <p className="mt-1 text-sm text-slate-700">{description}</p> : null}
      <div className="mt-4 flex flex-1 flex-col">{children}</div>
    </Card>
  );
}

/**
 * A settings card holding one form: its fields, the form's own error, and the submit button (which says
 * "Saving…" while the change is on its way). `intro` stands above the form.
 */
export function SettingsFormCard({
  id,
  title,
  description,
  intro,
  onSubmit,
  formError,
  pending,
  submitLabel,
  children,
}: {
  id: string;
  title: string;
  description: string;
  intro?: ReactNode;
  onSubmit(e: FormEvent): void;
  formError: string | undefined;
  pending: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('account');
  return (
    <SettingsCard id={id} title={title} description={description}>
      {intro}
      <form onSubmit={onSubmit} noValidate className="flex flex-1 flex-col gap-4">
        {children}
        <FormError message={formError} />
        <div className="mt-auto">
          <Button type="submit" disabled={pending}>
            {pending ? t('settings.saving') : submitLabel}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
