import type { TFunction } from 'i18next';
import { z } from 'zod';
import { CATEGORIES } from '#shared/contract/categories';
import type { TAdminWorkflowDetail } from '#shared/contract/admin';
import type { TBilingual } from '#shared/contract/common';
import {
  ZWorkflowInput,
  interactionIssues,
  type TSurveyQuestion,
  type TWorkflowInput,
} from '#shared/contract/workflows';
import type { SurveyErrors } from '../components/survey-builder';

/** What the create page edits; numbers stay text until submit so a half-typed value is not lost. */
export interface WorkflowDraft {
  userId: string;
  name: TBilingual;
  description: TBilingual;
  categoryKey: string;
  creditsPerExecution: string;
  isPublic: boolean;
  webhookUrl: string;
  interactionType: 'chatbot' | 'survey';
  welcomeMessage: TBilingual;
  aiPrompt: string;
  surveyQuestions: TSurveyQuestion[];
}

const emptyBilingual = (): TBilingual => ({ es: '', en: '' });

export function emptyDraft(): WorkflowDraft {
  return {
    userId: '',
    name: emptyBilingual(),
    description: emptyBilingual(),
    categoryKey: '',
    creditsPerExecution: '',
    isPublic: true,
    webhookUrl: '',
    interactionType: 'chatbot',
    welcomeMessage: emptyBilingual(),
    aiPrompt: '',
    surveyQuestions: [],
  };
}

/** The messages a workflow form shows, one per field, in the UI language. */
export interface DraftErrors {
  userId?: string;
  name?: string;
  description?: string;
  categoryKey?: string;
  creditsPerExecution?: string;
  webhookUrl?: string;
  welcomeMessage?: string;
  aiPrompt?: string;
  /** About the list of questions as a whole (none, or too many). */
  survey?: string;
  /** A broken rule no field of the form answers for (a setting the form does not show). */
  form?: string;
  /** By question id. */
  questions: SurveyErrors;
}

type FieldName = Exclude<keyof DraftErrors, 'questions' | 'form'>;

/** Which form field shows the problems of each top-level key of the contract. */
const FIELD_OF: Partial<Record<string, FieldName>> = {
  userId: 'userId',
  name: 'name',
  description: 'description',
  category: 'categoryKey',
  creditsPerExecution: 'creditsPerExecution',
  webhookUrl: 'webhookUrl',
  welcomeMessage: 'welcomeMessage',
  aiPrompt: 'aiPrompt',
  surveyQuestions: 'survey',
};

/** A field's message for a missing or malformed value; a value over the length limit has its own. */
const INVALID_KEY: Record<FieldName, string> = {
  userId: 'form.errors.user',
  name: 'form.errors.name',
  description: 'form.errors.invalid',
  categoryKey: 'form.errors.category',
  creditsPerExecution: 'form.errors.credits',
  webhookUrl: 'form.errors.webhookUrl',
  welcomeMessage: 'form.errors.welcomeMessage',
  aiPrompt: 'form.errors.aiPrompt',
  survey: 'form.errors.noQuestions',
};

type Issue = z.core.$ZodIssue;

// The bounds come from the contract, so the message cannot promise a range the server does not accept.
const creditsRule = ZWorkflowInput.shape.creditsPerExecution.unwrap();
const creditBounds = { min: creditsRule.minValue ?? 1, max: creditsRule.maxValue ?? Number.MAX_SAFE_INTEGER };

const maxOf = (issue: Issue): number | bigint | undefined =>
  issue.code === 'too_big' ? issue.maximum : undefined;

function fieldMessage(field: FieldName, issue: Issue, t: TFunction<'admin'>): string {
  const max = maxOf(issue);
  if (max !== undefined && field === 'survey') return t('form.errors.tooManyQuestions', { max });
  // A number over its maximum is out of range, not too long: it gets the range message below.
  if (max !== undefined && field !== 'creditsPerExecution') return t('form.errors.tooLong', { max });
  return field === 'creditsPerExecution' ? t(INVALID_KEY[field], creditBounds) : t(INVALID_KEY[field]);
}

/** A problem of one survey question: its text, its list of options, or one option. */
function questionMessage(rest: readonly PropertyKey[], issue: Issue, t: TFunction<'admin'>) {
  const [part, option] = rest;
  const max = maxOf(issue);
  if (part === 'question') {
    return {
      question: max !== undefined ? t('form.errors.tooLong', { max }) : t('form.errors.questionText'),
    };
  }
  if (part === 'options' && option === undefined) {
    return {
      options: max !== undefined ? t('form.errors.tooManyOptions', { max }) : t('form.errors.options'),
    };
  }
  if (part === 'options') {
    return { options: max !== undefined ? t('form.errors.tooLong', { max }) : t('survey.optionBlank') };
  }
  if (part === 'min' || part === 'max') {
    // A custom issue is the contract's own rule (the maximum below the minimum); the rest: not a number.
    return { range: issue.code === 'custom' ? t('form.errors.range') : t('form.errors.rangeNumber') };
  }
  return null;
}

/**
 * Puts each issue of a failed parse under the form field it is about, worded in the UI language. The first
 * issue of a field wins; an issue no field answers for becomes the form's own message, so a submit is never
 * blocked without saying why. `questionIds` names the questions by their place in the list.
 */
export function issuesToErrors(
  issues: readonly Issue[],
  questionIds: readonly string[],
  t: TFunction<'admin'>,
): DraftErrors {
  const errors: DraftErrors = { questions: {} };
  for (const issue of issues) {
    const [key, index, ...rest] = issue.path;
    const id = typeof index === 'number' ? questionIds[index] : undefined;
    if (key === 'surveyQuestions' && id !== undefined) {
      const message = questionMessage(rest, issue, t);
      if (message) {
        errors.questions[id] = { ...message, ...errors.questions[id] };
        continue;
      }
    }
    const field = typeof key === 'string' && index === undefined ? FIELD_OF[key] : undefined;
    const bilingualField =
      typeof key === 'string' && (index === 'es' || index === 'en') ? FIELD_OF[key] : undefined;
    const target = field ?? bilingualField;
    if (target) errors[target] ??= fieldMessage(target, issue, t);
    else errors.form ??= t('form.errors.unexpected');
  }
  return errors;
}

// The contract's interaction rules run on their own too, so the first submit shows every message at once.
const workflowRules = z.custom<TWorkflowInput>().superRefine(interactionIssues);

const issueId = (issue: Issue) => `${issue.code}:${issue.path.map(String).join('.')}`;

/** Every rule of the contract the workflow breaks. */
function workflowIssues(input: TWorkflowInput): Issue[] {
  const parsed = ZWorkflowInput.safeParse(input);
  if (parsed.success) return [];
  const seen = new Set(parsed.error.issues.map(issueId));
  const ruleIssues = workflowRules.safeParse(input).error?.issues ?? [];
  return [...parsed.error.issues, ...ruleIssues.filter((issue) => !seen.has(issueId(issue)))];
}

/** The create page's messages: the contract's rules on the request the draft would send. */
export function validateDraft(draft: WorkflowDraft, t: TFunction<'admin'>): DraftErrors {
  return issuesToErrors(
    workflowIssues(draftToInput(draft)),
    draft.surveyQuestions.map((q) => q.id),
    t,
  );
}

export function hasErrors(errors: DraftErrors): boolean {
  const { questions, ...fields } = errors;
  return Object.values(fields).some(Boolean) || Object.keys(questions).length > 0;
}

/** The category whose label pair matches a stored category, if it is one of the ten. */
function categoryKeyOf(category: TBilingual | null | undefined): string {
  if (!category) return '';
  return CATEGORIES.find((c) => c.name.en === category.en || c.name.es === category.es)?.key ?? '';
}

/** The category's label pair; blank (which the contract refuses) when none is chosen. */
function categoryOf(key: string): TBilingual {
  const category = CATEGORIES.find((c) => c.key === key);
  return category ? { ...category.name } : emptyBilingual();
}

const trimmed = (text: TBilingual): TBilingual => ({ es: text.es.trim(), en: text.en.trim() });

/** A description with nothing in either language is sent as none. */
function descriptionOf(text: TBilingual): TBilingual | null {
  const description = trimmed(text);
  return description.es || description.en ? description : null;
}

/** The request body of `POST /api/admin/workflows`; the contract decides whether it is valid. */
export function draftToInput(draft: WorkflowDraft): TWorkflowInput {
  const chatbot = draft.interactionType === 'chatbot';
  return {
    userId: draft.userId,
    name: trimmed(draft.name),
    description: descriptionOf(draft.description),
    category: categoryOf(draft.categoryKey),
    // A blank box becomes 0 and a word NaN: both reach the contract, which refuses them.
    creditsPerExecution: Number(draft.creditsPerExecution),
    isPublic: draft.isPublic,
    webhookUrl: draft.webhookUrl.trim(),
    interactionType: draft.interactionType,
    welcomeMessage: chatbot ? trimmed(draft.welcomeMessage) : null,
    aiPrompt: chatbot ? draft.aiPrompt.trim() : null,
    surveyQuestions: chatbot
      ? []
      : draft.surveyQuestions.map((q) => ({ ...q, question: trimmed(q.question) })),
  };
}

/**
 * The stored workflow as the form's values: the one row-to-form mapping (the edit page), the inverse of
 * draftToInput for every field the create page sets.
 */
export function workflowToDraft(w: TAdminWorkflowDetail): WorkflowDraft {
  return {
    userId: w.userId ?? '',
    name: w.name,
    description: w.description ?? emptyBilingual(),
    categoryKey: categoryKeyOf(w.category),
    creditsPerExecution: String(w.creditsPerExecution),
    isPublic: w.isPublic,
    webhookUrl: w.webhookUrl,
    interactionType: w.interactionType,
    welcomeMessage: w.welcomeMessage ?? emptyBilingual(),
    aiPrompt: w.aiPrompt ?? '',
    surveyQuestions: w.surveyQuestions,
  };
}
