import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Input, Label, RequiredMark, Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { usePublicConfig } from '#web/lib/public-config';
import { cn } from '#web/lib/utils';
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
  // Without a language model the buttons stay, greyed, and say why (until the answer comes, they wait too).
  const available = usePublicConfig().data?.translationAvailable === true;
  const unavailableId = `${id}-translate-unavailable`;

  // The message is for the pair: the blank sides are the ones to fix, or both when neither is blank (too long).
  const blank = (['es', 'en'] as const).filter((lng) => !value[lng].trim());

  const fill = (target: TLanguage) => {
    if (!available) return;
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
          toast({ title: t('translate.failed'), description: errorMessage(t, err), variant: 'destructive' }),
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
                  // Focusable while unavailable (aria-disabled, not disabled), so keyboard users reach the reason.
                  aria-disabled={available ? undefined : true}
                  aria-describedby={available ? undefined : unavailableId}
                  title={available ? undefined : t('translate.unavailable')}
                  data-testid={`translate-${lng}`}
                  className={cn(
                    'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-brand-700 disabled:opacity-60',
                    available ? 'hover:bg-brand-50' : 'cursor-not-allowed text-slate-600 opacity-60',
                  )}
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
      {available ? null : (
        <span id={unavailableId} className="sr-only">
          {t('translate.unavailable')}
        </span>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
