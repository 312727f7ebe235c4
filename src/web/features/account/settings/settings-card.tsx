import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { FormError } from '#web/components/ui/form-field';
import { cn } from '#web/lib/utils';

/** The settings' blocks; each one's texts are `settings.<section>.title` and `.description` (account). */
export type SettingsSection =
  'profile' | 'password' | 'email' | 'sessions' | 'notifications' | 'export' | 'delete';

/** One block of the settings: a titled card, optionally in the danger style. */
export function SettingsCard({
  section,
  children,
  danger,
  className,
}: {
  section: SettingsSection;
  children: ReactNode;
  danger?: boolean;
  className?: string;
}) {
  const { t } = useTranslation('account');
  const id = `settings-${section}`;
  const title = t(`settings.${section}.title`);
  const description = t(`settings.${section}.description`);
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
      <p className="mt-1 text-sm text-slate-700">{description}</p>
      <div className="mt-4 flex flex-1 flex-col">{children}</div>
    </Card>
  );
}

/**
 * A settings card holding one form: its fields, the form's own error, and the submit button
 * (`settings.<section>.submit`, "Saving…" while the change is on its way). `intro` stands above the form.
 */
export function SettingsFormCard({
  section,
  intro,
  onSubmit,
  formError,
  pending,
  children,
}: {
  section: SettingsSection;
  intro?: ReactNode;
  /** Called instead of the browser's own submit. */
  onSubmit(): void;
  formError: string | undefined;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('account');
  return (
    <SettingsCard section={section}>
      {intro}
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onSubmit();
        }}
        noValidate
        className="flex flex-1 flex-col gap-4"
      >
        {children}
        <FormError message={formError} />
        <div className="mt-auto">
          <Button type="submit" disabled={pending}>
            {pending ? t('settings.saving') : t(`settings.${section}.submit`)}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
