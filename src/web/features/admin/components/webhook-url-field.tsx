import { useTranslation } from 'react-i18next';
import { Input, Label } from '#web/components/ui/input';
import { FieldError } from '#web/components/ui/form-field';

interface WebhookUrlFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  /** The create page explains the contract in full; the edit dialog keeps only the field. */
  explain?: boolean;
}

/** The workflow service's address, with the webhook contract it must speak explained briefly. */
export function WebhookUrlField({ id, value, onChange, error, explain }: WebhookUrlFieldProps) {
  const { t } = useTranslation('admin');
  return (
    <div>
      <Label htmlFor={id} required>
        {t('form.webhookUrl')}
      </Label>
      <Input
        id={id}
        type="url"
        inputMode="url"
        required
        placeholder="https://"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error ? `${id}-error` : '', explain ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined
        }
      />
      <FieldError id={`${id}-error`} message={error} />
      {explain ? (
        <div
          id={`${id}-help`}
          className="mt-3 rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-slate-800"
        >
          <p className="font-semibold text-slate-900">{t('webhook.title')}</p>
          <ol className="mt-2 list-decimal space-y-1.5 pl-5">
            <li>{t('webhook.step1')}</li>
            <li>{t('webhook.step2')}</li>
            <li>{t('webhook.step3')}</li>
          </ol>
          <p className="mt-2">
            {t('webhook.more')}{' '}
            <code className="rounded bg-white px-1 py-0.5 text-xs text-slate-900">
              docs/webhook-contract.md
            </code>
          </p>
        </div>
      ) : null}
    </div>
  );
}
