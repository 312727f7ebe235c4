import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { QUESTION_TYPES, type TSurveyQuestion } from '#shared/contract/workflows';
import { BilingualField } from './bilingual-field';
import { FieldError } from '#web/components/ui/form-field';
import { FileQuestionEditor } from './file-question-editor';
import { OptionsEditor } from './options-editor';

export type SurveyErrors = Record<string, { question?: string; options?: string }>;

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
                      // A file question's settings belong to it alone.
                      const { accept: _accept, maxSizeMb: _maxSizeMb, ...rest } = q;
                      onChange(
                        questions.map((x, i) =>
                          i === index
                            ? {
                                ...(type === 'file' ? q : rest),
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
