import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import type { TAdminConfigEntry } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { useUpdateConfig } from '#web/features/admin/api/update-config';
import { FieldError } from '#web/components/ui/form-field';
import { formatDateTime } from '#web/features/admin/lib/format';
import { parseJson } from '#web/features/admin/lib/json-text';
import { errorMessage } from '#web/lib/error-key';

/** One configuration entry: its value shown as JSON and edited in place with save and cancel. */
export function ConfigEntryRow({ entry }: { entry: TAdminConfigEntry }) {
  const { t, i18n } = useTranslation('admin');
  const update = useUpdateConfig();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const fieldId = `config-${entry.key}`;
  const shown = JSON.stringify(entry.value, null, 2);

  const cancel = () => {
    setDraft(null);
    setError(undefined);
  };

  const save = () => {
    if (draft === null) return;
    const parsed = parseJson(draft);
    if (!parsed.ok) {
      setError(t('config.parseError', { message: parsed.message }));
      return;
    }
    update.mutate(
      { id: entry.id, value: parsed.value },
      {
        onSuccess: () => {
          toast({ title: t('config.saved'), description: entry.key, variant: 'success' });
          cancel();
        },
        onError: (err) => {
          setError(t('config.serverError', { message: errorMessage(t, err) }));
          toast({ title: t('config.saveError'), description: errorMessage(t, err), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <li className="p-4 sm:p-5" data-testid={`config-${entry.key}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="font-mono text-sm font-semibold text-slate-900" id={`${fieldId}-key`}>
            {entry.key}
          </h2>
          <p className="mt-1 text-sm text-slate-700" id={`${fieldId}-description`}>
            {pickLanguage(entry.description, i18n.language)}
          </p>
          <p className="mt-1 text-xs text-slate-600">
            {t('config.updatedAt', { date: formatDateTime(entry.updatedAt) })}
          </p>
        </div>
        {draft === null ? (
          <div className="flex shrink-0 items-center gap-3">
            <code className="rounded-md bg-slate-100 px-3 py-1.5 font-mono text-sm text-slate-900">
              {shown}
            </code>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setDraft(shown)}
              aria-label={t('config.editNamed', { key: entry.key })}
            >
              <Pencil className="size-4" aria-hidden="true" />
              {t('common.edit')}
            </Button>
          </div>
        ) : null}
      </div>
      {draft !== null ? (
        <div className="mt-3">
          <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-slate-800">
            {t('config.valueLabel', { key: entry.key })}
          </label>
          <Textarea
            id={fieldId}
            rows={Math.min(8, Math.max(2, draft.split('\n').length))}
            className="font-mono"
            spellCheck={false}
            value={draft}
            autoFocus
            onChange={(e) => {
              setDraft(e.target.value);
              setError(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') cancel();
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={[`${fieldId}-description`, error ? `${fieldId}-error` : '']
              .filter(Boolean)
              .join(' ')}
          />
          <FieldError id={`${fieldId}-error`} message={error} />
          <div className="mt-3 flex gap-2">
            <Button size="sm" onClick={save} disabled={update.isPending}>
              {update.isPending ? t('common.saving') : t('common.save')}
            </Button>
            <Button size="sm" variant="secondary" onClick={cancel}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
