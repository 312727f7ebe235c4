import { Plus, X } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Input, Label } from '#web/components/ui/input';
import { FieldError } from './field-error';

interface OptionsEditorProps {
  id: string;
  options: string[];
  onChange(options: string[]): void;
  error?: string | undefined;
}

/** The choices of a select or checkbox question: added with Enter or the plus button, never blank. */
export function OptionsEditor({ id, options, onChange, error }: OptionsEditorProps) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState('');
  const [hint, setHint] = useState<string | undefined>();

  const add = () => {
    const option = draft.trim();
    if (!option) {
      setHint(t('survey.optionBlank'));
      return;
    }
    if (options.includes(option)) {
      setHint(t('survey.optionDuplicate'));
      return;
    }
    onChange([...options, option]);
    setDraft('');
    setHint(undefined);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the option instead of submitting the whole form.
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    }
  };

  return (
    <div>
      <Label htmlFor={`${id}-new`}>{t('survey.options')}</Label>
      <div className="flex gap-2">
        <Input
          id={`${id}-new`}
          value={draft}
          placeholder={t('survey.optionPlaceholder')}
          onChange={(e) => {
            setDraft(e.target.value);
            setHint(undefined);
          }}
          onKeyDown={onKeyDown}
          aria-describedby={hint || error ? `${id}-error` : undefined}
        />
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
          {options.map((option) => (
            <li
              key={option}
              className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-slate-50 py-1 pl-3 pr-1 text-sm text-slate-800"
            >
              {option}
              <button
                type="button"
                onClick={() => onChange(options.filter((o) => o !== option))}
                className="rounded-full p-0.5 text-slate-600 hover:bg-slate-200 hover:text-slate-900"
                aria-label={t('survey.removeOption', { option })}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
