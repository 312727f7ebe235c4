import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Input, Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { isRequiredQuestion, QUESTION_TYPES, type TSurveyQuestion } from '#shared/contract/workflows';
import { BilingualField } from './bilingual-field';
import { describedBy, FieldError } from '#web/components/ui/form-field';
import { FileQuestionEditor } from './file-question-editor';
import { OptionsEditor } from './options-editor';

export type SurveyErrors = Record<string, { question?: string; options?: string; range?: string }>;

interface SurveyBuilderProps {
  questions: TSurveyQuestion[];
  onChange(questions: TSurveyQuestion[]): void;
  errors: SurveyErrors;
  /** Shown when the survey has no question at all. */
  listError?: string | undefined;
}

const newQuestionId = () => `q-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export const emptyQuestion = (): TSurveyQuestion => ({
  id: newQuestionId(),
  question: { es: '', en: '' },
  type: 'text',
  options: [],
  required: true,
});

const hasOptions = (type: TSurveyQuestion['type']) => type === 'select' || type === 'checkbox';

/** Questions of a survey workflow: add, remove, move up and down, six types, options for choices, file settings. */
export function SurveyBuilder({ questions, onChange, errors, listError }: SurveyBuilderProps) {
  const { t } = useTranslation('admin');

  const update = (index: number, patch: Partial<TSurveyQuestion>) =>
    onChange(questions.map((q, i) => (i === index ? { ...q, ...patch } : q)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    onChange(next);
  };

  return (
    <div className="space-y-4">
      {questions.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-700">
          {t('survey.none')}
        </p>
      ) : null}
      <ol className="space-y-4">
        {questions.map((q, index) => {
          const number = index + 1;
          const err = errors[q.id] ?? {};
          return (
            <li
              key={q.id}
              className="rounded-xl border border-slate-200 bg-slate-50/60 p-4"
              aria-label={t('survey.questionN', { n: number })}
            >
              <div className="mb-3 flex items-center justify-between gap-2">
                <h3 className="text-sm font-semibold text-slate-900">
                  {t('survey.questionN', { n: number })}
                </h3>
                <div className="flex gap-1">
                  <IconButton
                    label={t('survey.moveUp', { n: number })}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp className="size-4" aria-hidden="true" />
                  </IconButton>
                  <IconButton
                    label={t('survey.moveDown', { n: number })}
                    disabled={index === questions.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown className="size-4" aria-hidden="true" />
                  </IconButton>
                  <IconButton
                    label={t('survey.remove', { n: number })}
                    onClick={() => onChange(questions.filter((_, i) => i !== index))}
                    danger
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </IconButton>
                </div>
              </div>
              <div className="space-y-3">
                <BilingualField
                  id={`question-${q.id}`}
                  label={t('survey.text')}
                  value={q.question}
                  onChange={(question) => update(index, { question })}
                  required
                  error={err.question}
                />
                <div className="sm:max-w-xs">
                  <Label htmlFor={`question-${q.id}-type`}>{t('survey.type')}</Label>
                  <Select
                    id={`question-${q.id}-type`}
                    value={q.type}
                    onChange={(e) => {
                      const type = e.target.value as TSurveyQuestion['type'];
                      // A file question's settings, and a number question's range, belong to it alone.
                      const { accept: _accept, maxSizeMb: _maxSizeMb, ...withoutFile } = q;
                      const { min: _min, max: _max, ...withoutRange } = type === 'file' ? q : withoutFile;
                      onChange(
                        questions.map((x, i) =>
                          i === index
                            ? {
                                ...(type === 'number'
                                  ? { ...withoutRange, min: q.min, max: q.max }
                                  : withoutRange),
                                type,
                                options: hasOptions(type) ? q.options : [],
                              }
                            : x,
                        ),
                      );
                    }}
                  >
                    {QUESTION_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`survey.types.${type}`)}
                      </option>
                    ))}
                  </Select>
                </div>
                <label className="flex w-fit cursor-pointer items-center gap-2 text-sm font-medium text-slate-900">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-600"
                    checked={isRequiredQuestion(q)}
                    onChange={(e) => update(index, { required: e.target.checked })}
                  />
                  {t('survey.required')}
                </label>
                {q.type === 'number' ? (
                  <NumberRange
                    id={`question-${q.id}-range`}
                    question={q}
                    error={err.range}
                    onChange={(range) => update(index, range)}
                  />
                ) : null}
                {q.type === 'file' ? (
                  <FileQuestionEditor
                    id={`question-${q.id}-file`}
                    question={q}
                    onChange={(patch) => {
                      const { accept: _accept, maxSizeMb: _maxSizeMb, ...rest } = q;
                      onChange(
                        questions.map((x, i) =>
                          i === index
                            ? {
                                ...rest,
                                ...(patch.accept ? { accept: patch.accept } : {}),
                                ...(patch.maxSizeMb ? { maxSizeMb: patch.maxSizeMb } : {}),
                              }
                            : x,
                        ),
                      );
                    }}
                  />
                ) : null}
                {hasOptions(q.type) ? (
                  <OptionsEditor
                    id={`question-${q.id}-options`}
                    value={{ options: q.options ?? [], optionLabels: q.optionLabels }}
                    onChange={(choices) => update(index, choices)}
                    error={err.options}
                  />
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <FieldError id="survey-error" message={listError} />
      <Button variant="secondary" onClick={() => onChange([...questions, emptyQuestion()])}>
        <Plus className="size-4" aria-hidden="true" />
        {t('survey.add')}
      </Button>
    </div>
  );
}

/** A number question's smallest and largest answer; an empty box is no limit. */
function NumberRange({
  id,
  question,
  error,
  onChange,
}: {
  id: string;
  question: TSurveyQuestion;
  error: string | undefined;
  onChange(range: Pick<TSurveyQuestion, 'min' | 'max'>): void;
}) {
  const { t } = useTranslation('admin');
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  // A box left empty is no limit; anything else goes to the contract, which refuses what is not a number.
  const parse = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const box = (bound: 'min' | 'max') => (
    <div>
      <Label htmlFor={`${id}-${bound}`}>{t(`survey.${bound}`)}</Label>
      <Input
        id={`${id}-${bound}`}
        type="number"
        inputMode="decimal"
        step="any"
        value={question[bound] === undefined || Number.isNaN(question[bound]) ? '' : String(question[bound])}
        onChange={(e) => onChange({ min: question.min, max: question.max, [bound]: parse(e.target.value) })}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, error && errorId)}
      />
    </div>
  );
  return (
    <div>
      <div className="grid max-w-md grid-cols-2 gap-3">
        {box('min')}
        {box('max')}
      </div>
      <p id={hintId} className="mt-1 text-xs text-slate-700">
        {t('survey.rangeHint')}
      </p>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  danger,
  children,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className={
        danger
          ? 'rounded-md p-2 text-red-700 hover:bg-red-50 disabled:opacity-40'
          : 'rounded-md p-2 text-slate-700 hover:bg-slate-200 disabled:opacity-40'
      }
    >
      {children}
    </button>
  );
}
