import { ClipboardList, Send } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLanguage } from '#shared/contract/common';
import { optionText, type TSurveyQuestion } from '#shared/contract/workflows';
import { Button } from '#web/components/ui/button';
import { FieldError } from '#web/components/ui/form-field';
import { Input, Textarea } from '#web/components/ui/input';
import { useToastClearance } from '#web/components/ui/toast';
import { caseKey, fieldProblems } from '#web/lib/error-key';
import { cn } from '#web/lib/utils';
import { FileAnswerField } from './file-answer-field';
import { SaveAnswersPanel } from './save-answers-panel';
import {
  type AnswerIssue,
  answerIssues,
  initialAnswers,
  isRequired,
  isUploadedFile,
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

/**
 * A field's problem, found by the form's own check or named by the server's refusal: either way a case of
 * VALIDATION_ERROR in the errors namespace, worded here in the reader's language.
 */
type FieldIssue = Omit<AnswerIssue, 'key'> & {
  key: string;
  /** A text of the form's own (execute namespace). */ own?: true;
};

/**
 * Files kept with the saved answers being edited are the saved answers', not this run's: sending the run
 * needs each one replaced by an upload (saving does not).
 */
function keptFileIssues(questions: TSurveyQuestion[], answers: SurveyAnswers): Array<[string, FieldIssue]> {
  return questions.flatMap((q): Array<[string, FieldIssue]> => {
    const answer = answers[q.id];
    return isUploadedFile(answer) && answer.kept
      ? [[q.id, { key: 'survey.keptFileNotSent', own: true }]]
      : [];
  });
}

/**
 * The server's refusal of the answers, by question id: its `answers.<id>` fields with the case of each (the
 * code's own wording when the server named none this client knows).
 */
function refusalIssues(refusal: unknown, questions: TSurveyQuestion[]): Record<string, FieldIssue> {
  const ids = new Set(questions.map((q) => q.id));
  return Object.fromEntries(
    fieldProblems(refusal).flatMap(({ field, key, params }) => {
      const id = field.replace(/^answers\./, '');
      if (!field.startsWith('answers.') || !ids.has(id)) return [];
      const known = key !== undefined && caseKey('VALIDATION_ERROR', key) !== null;
      return [[id, { key: known ? key : 'default', ...(params ? { params } : {}) }]];
    }),
  );
}
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
  refusal,
  workflowId,
  editing,
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
  /**
   * The complete call's failure, if the last send failed: a refusal of the answers (the workflow's questions
   * changed since the page loaded) is shown next to the fields it names.
   */
  refusal?: unknown;
  /** The workflow whose answers may be saved without running them ("save without running"). */
  workflowId?: string;
  /** Saved answers being edited: saving replaces their answers instead of saving new ones. */
  editing?: { id: string; name: string } | undefined;
}) {
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const [answers, setAnswers] = useState<SurveyAnswers>(() => ({ ...initialAnswers(questions), ...initial }));
  // The form's own check (the server's rules, answerIssues) by question id; the browser's bubbles are off.
  const [issues, setIssues] = useState<Record<string, FieldIssue>>({});
  const [shownRefusal, setShownRefusal] = useState<unknown>(refusal);
  if (refusal !== shownRefusal) {
    setShownRefusal(refusal);
    if (refusal) setIssues(refusalIssues(refusal, questions));
  }
  const submitRow = useRef<HTMLDivElement>(null);
  useToastClearance(submitRow);
  const text = (q: TSurveyQuestion) => pickLanguage(q.question, lng);

  const setAnswer = (id: string, value: SurveyAnswer) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    setIssues(({ [id]: _fixed, ...rest }) => rest);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Array<[string, FieldIssue]> = answerIssues(questions, answers, lng === 'es' ? 'es' : 'en');
    const byId = new Set(found.map(([id]) => id));
    found.push(...keptFileIssues(questions, answers).filter(([id]) => !byId.has(id)));
    // In the questions' order, so the first one is focused.
    found.sort(([a], [b]) => questions.findIndex((q) => q.id === a) - questions.findIndex((q) => q.id === b));
    setIssues(Object.fromEntries(found));
    if (found.length > 0) {
      document.getElementById(`survey-${found[0]![0]}`)?.focus();
      return;
    }
    onSubmit(surveyResponses(questions, answers));
  };
  const issueCount = Object.keys(issues).length;

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
        data-testid="survey-form"
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
        {issueCount > 0 ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {t('survey.invalidSummary', { count: issueCount })}
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
            issue={issues[q.id]}
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
      {workflowId ? (
        <div className="mt-6">
          <SaveAnswersPanel
            isChat={false}
            source={{
              kind: 'form',
              workflowId,
              runId: executionId,
              ...(editing ? { editing } : {}),
              // Checked as a send is; the fields show what to fix and nothing is saved until they are right.
              answers: () => {
                const found = answerIssues(questions, answers, lng === 'es' ? 'es' : 'en');
                setIssues(Object.fromEntries(found));
                if (found.length > 0) {
                  document.getElementById(`survey-${found[0]![0]}`)?.focus();
                  return null;
                }
                return Object.fromEntries(
                  surveyResponses(questions, answers).map((r) => [r.questionId, r.answer]),
                );
              },
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

function QuestionField({
  executionId,
  question: q,
  index,
  text,
  value,
  issue,
  onChange,
}: {
  executionId: string;
  question: TSurveyQuestion;
  index: number;
  text: string;
  value: SurveyAnswer;
  /** What the form's check found wrong with this answer, if anything. */
  issue: FieldIssue | undefined;
  onChange(value: SurveyAnswer): void;
}) {
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const required = isRequired(q);
  const invalid = issue !== undefined;
  // The texts are the server's own (the errors namespace), so the form and a refusal say the same thing.
  const message = issue
    ? t(issue.own ? issue.key : `errors:VALIDATION_ERROR.${issue.key}`, issue.params ?? {})
    : null;
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
  const error = <FieldError id={errorId(q)} message={message} />;

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
        invalidMessage={message}
        // An empty string is the form's "no answer", as for the other types.
        onChange={(file) => onChange(file ?? '')}
      />
    );
  }

  if (q.type === 'checkbox') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset aria-describedby={invalid ? errorId(q) : undefined}>
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
                aria-invalid={invalid || undefined}
                onChange={() => onChange(toggleOption(q.options, chosen, option))}
              />
              {optionText(q, option, lng)}
            </label>
          ))}
        </div>
        <p className="mt-1.5 text-xs text-slate-700">{t('survey.checkboxHint')}</p>
        {error}
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
          // Shown to the spinner and to assistive technology; the form's own check enforces them.
          {...(q.type === 'number' ? { step: 'any', min: q.min, max: q.max } : {})}
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
