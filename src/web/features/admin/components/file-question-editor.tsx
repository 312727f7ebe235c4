import { useTranslation } from 'react-i18next';
import {
  INPUT_FILE_EXTENSIONS,
  MAX_INPUT_FILE_MB,
  type TInputFileExtension,
  type TSurveyQuestion,
} from '#shared/contract/workflows';
import { Input, Label } from '#web/components/ui/input';

/** The kinds an admin ticks: jpg stands for both spellings of JPEG. */
const KINDS = INPUT_FILE_EXTENSIONS.filter((e) => e !== 'jpeg');

/**
 * A file question's settings: which kinds it takes (none ticked: all) and its largest size in MB (empty: the
 * site's live limit, `max_input_file_mb`, which is also the ceiling).
 */
export function FileQuestionEditor({
  id,
  question,
  onChange,
}: {
  id: string;
  question: TSurveyQuestion;
  onChange(patch: Pick<TSurveyQuestion, 'accept' | 'maxSizeMb'>): void;
}) {
  const { t } = useTranslation('admin');
  const accept = question.accept ?? [];
  const toggle = (kind: TInputFileExtension) => {
    const spellings: TInputFileExtension[] = kind === 'jpg' ? ['jpg', 'jpeg'] : [kind];
    const next = accept.includes(kind)
      ? accept.filter((e) => !spellings.includes(e))
      : [...accept, ...spellings.filter((e) => !accept.includes(e))];
    const ordered = INPUT_FILE_EXTENSIONS.filter((e) => next.includes(e));
    onChange({ accept: ordered.length > 0 ? ordered : undefined, maxSizeMb: question.maxSizeMb });
  };
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
      <fieldset aria-describedby={`${id}-accept-hint`}>
        <legend className="mb-1 text-sm font-medium text-slate-800">{t('survey.accept')}</legend>
        <div className="flex flex-wrap gap-2">
          {KINDS.map((kind) => (
            <label
              key={kind}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="checkbox"
                className="size-4 accent-brand-600"
                checked={accept.includes(kind)}
                onChange={() => toggle(kind)}
              />
              {kind.toUpperCase()}
            </label>
          ))}
        </div>
        <p id={`${id}-accept-hint`} className="mt-1 text-xs text-slate-700">
          {t('survey.acceptHint')}
        </p>
      </fieldset>
      <div className="sm:w-44">
        <Label htmlFor={`${id}-max`}>{t('survey.maxSize')}</Label>
        <Input
          id={`${id}-max`}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_INPUT_FILE_MB}
          step={1}
          placeholder={String(MAX_INPUT_FILE_MB)}
          value={question.maxSizeMb ?? ''}
          aria-describedby={`${id}-max-hint`}
          onChange={(e) => {
            const n = Math.round(Number(e.target.value));
            const maxSizeMb =
              e.target.value === '' || !Number.isFinite(n)
                ? undefined
                : Math.min(MAX_INPUT_FILE_MB, Math.max(1, n));
            onChange({ accept: question.accept, maxSizeMb });
          }}
        />
        <p id={`${id}-max-hint`} className="mt-1 text-xs text-slate-700">
          {t('survey.maxSizeHint')}
        </p>
      </div>
    </div>
  );
}
