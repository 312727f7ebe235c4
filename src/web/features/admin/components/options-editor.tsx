import { Plus, X } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Input, Label } from '#web/components/ui/input';
import type { TBilingual } from '#shared/contract/common';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { FieldError } from '#web/components/ui/form-field';

type Choices = Pick<TSurveyQuestion, 'options' | 'optionLabels'>;

interface OptionsEditorProps {
  id: string;
  value: Choices;
  onChange(value: Choices): void;
  error?: string | undefined;
}

const EMPTY: TBilingual = { es: '', en: '' };
/** No labels at all is stored as none, so a question without them keeps the shape it always had. */
const nonEmpty = (labels: Record<string, TBilingual>) =>
  Object.keys(labels).length > 0 ? labels : undefined;

/**
 * The choices of a select or checkbox question, each written in Spanish and English (added with Enter or the
 * plus button, never blank). An option written in both languages is stored as its English text with both as
 * labels, so each person reads it in their language; written in one language only, it reads the same in both.
 */
export function OptionsEditor({ id, value, onChange, error }: OptionsEditorProps) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<TBilingual>(EMPTY);
  const [hint, setHint] = useState<string | undefined>();
  const { options } = value;
  const labels = value.optionLabels ?? {};

  const add = () => {
    const es = draft.es.trim();
    const en = draft.en.trim();
    const option = en || es;
    if (!option) {
      setHint(t('survey.optionBlank'));
      return;
    }
    if (options.includes(option)) {
      setHint(t('survey.optionDuplicate'));
      return;
    }
    const both = es && en && es !== en;
    const optionLabels = both ? { ...labels, [option]: { es, en } } : labels;
    onChange({ options: [...options, option], optionLabels: nonEmpty(optionLabels) });
    setDraft(EMPTY);
    setHint(undefined);
  };

  const remove = (option: string) => {
    const { [option]: _removed, ...rest } = labels;
    onChange({ options: options.filter((o) => o !== option), optionLabels: nonEmpty(rest) });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the option instead of submitting the whole form.
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    }
  };

  const describedBy = [`${id}-hint`, hint || error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-slate-900">{t('survey.options')}</legend>
      <p id={`${id}-hint`} className="mb-2 text-xs text-slate-700">
        {t('survey.optionsHint')}
      </p>
      <div className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        {(['es', 'en'] as const).map((lng) => (
          <div key={lng}>
            <Label htmlFor={`${id}-new-${lng}`}>{t(`languages.${lng}`)}</Label>
            <Input
              id={`${id}-new-${lng}`}
              lang={lng}
              value={draft[lng]}
              placeholder={t('survey.optionPlaceholder')}
              onChange={(e) => {
                setDraft({ ...draft, [lng]: e.target.value });
                setHint(undefined);
              }}
              onKeyDown={onKeyDown}
              aria-describedby={describedBy}
            />
          </div>
        ))}
        <Button
          variant="secondary"
          onClick={add}
          aria-label={t('survey.addOption')}
          title={t('survey.addOption')}
        >
          <Plus className="size-4" aria-hidden="true" />
        </Button>
      </div>
      <FieldError id={`${id}-error`} message={hint ?? error} />
      {options.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={t('survey.optionList')}>
          {options.map((option) => {
            const label = labels[option];
            return (
              <li
                key={option}
                className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-slate-50 py-1 pl-3 pr-1 text-sm text-slate-800"
              >
                {/* What the admin typed: not UI text, so the language walk and translators leave it alone. */}
                <span translate="no">
                  {label ? (
                    <>
                      <span lang="es">{label.es}</span>
                      <span className="text-slate-600" aria-hidden="true">
                        {' · '}
                      </span>
                      <span lang="en">{label.en}</span>
                    </>
                  ) : (
                    option
                  )}
                </span>
                <button
                  type="button"
                  onClick={() => remove(option)}
                  className="rounded-full p-0.5 text-slate-600 hover:bg-slate-200 hover:text-slate-900"
                  aria-label={t('survey.removeOption', {
                    option: label ? `${label.es} / ${label.en}` : option,
                  })}
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </fieldset>
  );
}
