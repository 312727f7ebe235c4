import { ClipboardList, Send } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLanguage } from '#shared/contract/common';
import { optionText, type TSurveyQuestion } from '#shared/contract/workflows';
import { Button } from '#web/components/ui/button';
import { Input, Textarea } from '#web/components/ui/input';
import { useToastClearance } from '#web/components/ui/toast';
import { cn } from '#web/lib/utils';
import { FileAnswerField } from './file-answer-field';
import {
  initialAnswers,
  isRequired,
  isUploadedFile,
  missingAnswers,
  type SurveyAnswer,
  type SurveyAnswers,
  type SurveyResponse,
  surveyResponses,
  toggleOption,
} from './lib/survey-answers';

const SELECT =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';
const INVALID = 'border-red-600 focus:border-red-600 focus:ring-red-600/30';
// Room under the sticky top bar when a missing answer is focused and scrolled into view.
const SCROLL_ROOM = 'scroll-mt-28';

const fieldId = (q: TSurveyQuestion) => `survey-${q.id}`;
const errorId = (q: TSurveyQuestion) => `survey-${q.id}-error`;

export function SurveyForm({
  executionId,
  title,
  description,
  questions,
  submitting,
  onSubmit,
  initial,
  notice,
}: {
  /** The pending run: file answers are uploaded to it before the answers are sent. */
  executionId: string;
  title: string;
  description: string;
  questions: TSurveyQuestion[];
  submitting: boolean;
  onSubmit(responses: SurveyResponse[]): void;
  /** Starting answers (a run again with an earlier run's answers); missing ones start empty. */
  initial?: SurveyAnswers;
  /** A line above the questions saying where the starting answers came from. */
  notice?: string;
}) {
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const [answers, setAnswers] = useState<SurveyAnswers>(() => ({ ...initialAnswers(questions), ...initial }));
  const [missing, setMissing] = useState<string[]>([]);
  const submitRow = useRef<HTMLDivElement>(null);
  useToastClearance(submitRow);
  const text = (q: TSurveyQuestion) => pickLanguage(q.question, lng);

  const setAnswer = (id: string, value: SurveyAnswer) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    setMissing((m) => m.filter((x) => x !== id));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const gaps = missingAnswers(questions, answers);
    setMissing(gaps);
    if (gaps.length > 0) {
      document.getElementById(`survey-${gaps[0]}`)?.focus();
      return;
    }
    onSubmit(surveyResponses(questions, answers, text, lng));
  };

  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <div className="flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
          <ClipboardList className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-sm leading-6 text-slate-700">{description}</p> : null}
        </div>
      </div>
      <form
        noValidate
        onSubmit={submit}
        className="mt-8 space-y-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
      >
        <p className="text-sm text-slate-700">
          <span className="font-semibold text-red-700" aria-hidden="true">
            *
          </span>{' '}
          {t('survey.requiredNote')}
        </p>
        {notice ? (
          <p
            className="rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-900"
            data-testid="survey-prefill-notice"
          >
            {notice}
          </p>
        ) : null}
        {missing.length > 0 ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {t('survey.missingSummary', { count: missing.length })}
          </p>
        ) : null}
        {questions.map((q, index) => (
          <QuestionField
            key={q.id}
            executionId={executionId}
            index={index}
            question={q}
            text={text(q)}
            value={answers[q.id] ?? (q.type === 'checkbox' ? [] : '')}
            invalid={missing.includes(q.id)}
            onChange={(value) => setAnswer(q.id, value)}
          />
        ))}
        <div ref={submitRow} className="flex justify-end border-t border-slate-100 pt-6">
          <Button type="submit" size="lg" disabled={submitting} className="w-full sm:w-auto">
            <Send className="size-4" aria-hidden="true" />
            {submitting ? t('survey.submitting') : t('survey.submit')}
          </Button>
        </div>
      </form>
    </div>
  );
}

function QuestionField({
  executionId,
  question: q,
  index,
  text,
  value,
  invalid,
  onChange,
}: {
  executionId: string;
  question: TSurveyQuestion;
  index: number;
  text: string;
  value: SurveyAnswer;
  invalid: boolean;
  onChange(value: SurveyAnswer): void;
}) {
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const required = isRequired(q);
  const described = invalid ? { 'aria-describedby': errorId(q), 'aria-invalid': true } : {};
  const label = (
    <>
      <span className="text-slate-600">{index + 1}.</span> {text}
      {required ? (
        <>
          <span className="ml-1 text-red-700" aria-hidden="true">
            *
          </span>
          <span className="sr-only"> ({t('survey.required')})</span>
        </>
      ) : null}
    </>
  );
  const error = invalid ? (
    <p id={errorId(q)} className="mt-1.5 text-sm font-medium text-red-700">
      {t('survey.missing')}
    </p>
  ) : null;

  if (q.type === 'file') {
    return (
      <FileAnswerField
        executionId={executionId}
        question={q}
        inputId={fieldId(q)}
        hintId={`survey-${q.id}-hint`}
        label={label}
        value={isUploadedFile(value) ? value : null}
        invalid={invalid}
        invalidMessage={t('file.missing')}
        // An empty string is the form's "no answer", as for the other types.
        onChange={(file) => onChange(file ?? '')}
      />
    );
  }

  if (q.type === 'checkbox') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-900">{label}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {q.options.map((option, i) => (
            <label
              key={option}
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2.5 text-sm text-slate-900 hover:bg-slate-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                // The first box takes the question's id so a focus request lands on the group.
                id={i === 0 ? fieldId(q) : undefined}
                type="checkbox"
                className={cn('size-4 accent-brand-600', SCROLL_ROOM)}
                checked={chosen.includes(option)}
                onChange={() => onChange(toggleOption(q.options, chosen, option))}
              />
              {optionText(q, option, lng)}
            </label>
          ))}
        </div>
        <p className="mt-1.5 text-xs text-slate-700">{t('survey.checkboxHint')}</p>
      </fieldset>
    );
  }

  const str = typeof value === 'string' ? value : '';
  return (
    <div>
      <label htmlFor={fieldId(q)} className="mb-1.5 block text-sm font-medium text-slate-900">
        {label}
      </label>
      {q.type === 'textarea' ? (
        <Textarea
          id={fieldId(q)}
          rows={4}
          required={required}
          value={str}
          onChange={(e) => onChange(e.target.value)}
          className={cn(SCROLL_ROOM, invalid && INVALID)}
          {...described}
        />
      ) : q.type === 'select' ? (
        <select
          id={fieldId(q)}
          required={required}
          value={str}
          onChange={(e) => onChange(e.target.value)}
          className={cn(SELECT, SCROLL_ROOM, invalid && INVALID)}
          {...described}
        >
          <option value="">{t('survey.choose')}</option>
          {q.options.map((option) => (
            <option key={option} value={option}>
              {optionText(q, option, lng)}
            </option>
          ))}
        </select>
      ) : (
        <Input
          id={fieldId(q)}
          type={q.type === 'number' ? 'number' : 'text'}
          inputMode={q.type === 'number' ? 'decimal' : undefined}
          required={required}
          value={str}
          onChange={(e) => onChange(e.target.value)}
          className={cn(SCROLL_ROOM, invalid && INVALID)}
          {...described}
        />
      )}
      {error}
    </div>
  );
}
