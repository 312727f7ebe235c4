import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Input, Label, RequiredMark, Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import type { TBilingual, TLanguage } from '#shared/contract/common';
import { useTranslateText } from '../api/translate-text';
import { FieldError } from '#web/components/ui/form-field';

interface BilingualFieldProps {
  id: string;
  label: string;
  value: TBilingual;
  onChange(value: TBilingual): void;
  required?: boolean;
  multiline?: boolean;
  /** One message for the pair (both languages are needed). */
  error?: string | undefined;
}

const OTHER: Record<TLanguage, TLanguage> = { es: 'en', en: 'es' };

/** A text in Spanish and English side by side; each side can be filled by translating the other. */
export function BilingualField({
  id,
  label,
  value,
  onChange,
  required,
  multiline,
  error,
}: BilingualFieldProps) {
  const { t } = useTranslation('admin');
  const translate = useTranslateText();

  // The message is for the pair: the blank sides are the ones to fix, or both when neither is blank (too long).
  const blank = (['es', 'en'] as const).filter((lng) => !value[lng].trim());

  const fill = (target: TLanguage) => {
    const source = value[OTHER[target]].trim();
    if (!source) {
      toast({ title: t('translate.empty'), variant: 'destructive' });
      return;
    }
    translate.mutate(
      { text: source, targetLanguage: target },
      {
        onSuccess: ({ translation }) => onChange({ ...value, [target]: translation }),
        onError: (err) =>
          toast({ title: t('translate.failed'), description: err.message, variant: 'destructive' }),
      },
    );
  };

  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold text-slate-900">
        {label}
        {required ? <RequiredMark /> : null}
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {(['es', 'en'] as const).map((lng) => {
          const fieldId = `${id}-${lng}`;
          const common = {
            id: fieldId,
            lang: lng,
            value: value[lng],
            required,
            'aria-invalid': error && (blank.length === 0 || blank.includes(lng)) ? true : undefined,
            'aria-describedby': error ? `${id}-error` : undefined,
          };
          return (
            <div key={lng} className="min-w-0">
              <div className="mb-1 flex items-center justify-between gap-2">
                <Label htmlFor={fieldId} className="mb-0">
                  {t(`languages.${lng}`)}
                </Label>
                <button
                  type="button"
                  onClick={() => fill(lng)}
                  disabled={translate.isPending}
                  className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
                >
                  <Languages className="size-3.5" aria-hidden="true" />
                  {t(`translate.from.${OTHER[lng]}`)}
                  <span className="sr-only">{` (${label})`}</span>
                </button>
              </div>
              {multiline ? (
                <Textarea
                  {...common}
                  rows={3}
                  onChange={(e) => onChange({ ...value, [lng]: e.target.value })}
                />
              ) : (
                <Input {...common} onChange={(e) => onChange({ ...value, [lng]: e.target.value })} />
              )}
            </div>
          );
        })}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
