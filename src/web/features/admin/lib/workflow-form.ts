import type { TFunction } from 'i18next';
import { CATEGORIES } from '../../../../shared/contract/categories';
import type { TBilingual } from '../../../../shared/contract/common';
import type { TSurveyQuestion, TWorkflowInput } from '../../../../shared/contract/workflows';
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

export const emptyBilingual = (): TBilingual => ({ es: '', en: '' });

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

export interface DraftErrors {
  userId?: string;
  name?: string;
  categoryKey?: string;
  creditsPerExecution?: string;
  webhookUrl?: string;
  welcomeMessage?: string;
  aiPrompt?: string;
  survey?: string;
  questions: SurveyErrors;
}

const bothFilled = (text: TBilingual) => Boolean(text.es.trim() && text.en.trim());

/** An http(s) URL, the only kind the server dispatches to. */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The category whose label pair matches a stored category, if it is one of the ten. */
export function categoryKeyOf(category: TBilingual | null | undefined): string {
  if (!category) return '';
  return CATEGORIES.find((c) => c.name.en === category.en || c.name.es === category.es)?.key ?? '';
}

/** The workflow rules for the create page, with messages in the UI language. */
export function validateDraft(draft: WorkflowDraft, t: TFunction<'admin'>): DraftErrors {
  const errors: DraftErrors = { questions: {} };
  if (!draft.userId) errors.userId = t('form.errors.user');
  if (!bothFilled(draft.name)) errors.name = t('form.errors.name');
  if (!draft.categoryKey) errors.categoryKey = t('form.errors.category');
  const credits = Number(draft.creditsPerExecution);
  if (!Number.isInteger(credits) || credits < 1) errors.creditsPerExecution = t('form.errors.credits');
  if (!isWebhookUrl(draft.webhookUrl)) errors.webhookUrl = t('form.errors.webhookUrl');
  if (draft.interactionType === 'chatbot') {
    if (!bothFilled(draft.welcomeMessage)) errors.welcomeMessage = t('form.errors.welcomeMessage');
    if (!draft.aiPrompt.trim()) errors.aiPrompt = t('form.errors.aiPrompt');
  } else {
    if (draft.surveyQuestions.length === 0) errors.survey = t('form.errors.noQuestions');
    for (const q of draft.surveyQuestions) {
      const e: SurveyErrors[string] = {};
      if (!bothFilled(q.question)) e.question = t('form.errors.questionText');
      if ((q.type === 'select' || q.type === 'checkbox') && q.options.length === 0)
        e.options = t('form.errors.options');
      if (e.question || e.options) errors.questions[q.id] = e;
    }
  }
  return errors;
}

export function hasErrors(errors: DraftErrors): boolean {
  const { questions, ...fields } = errors;
  return Object.values(fields).some(Boolean) || Object.keys(questions).length > 0;
}

const trimmed = (text: TBilingual): TBilingual => ({ es: text.es.trim(), en: text.en.trim() });

/** The request body of `POST /api/admin/workflows` for a valid draft. */
export function draftToInput(draft: WorkflowDraft): TWorkflowInput {
  const category = CATEGORIES.find((c) => c.key === draft.categoryKey);
  const description = trimmed(draft.description);
  const chatbot = draft.interactionType === 'chatbot';
  return {
    userId: draft.userId,
    name: trimmed(draft.name),
    description: description.es || description.en ? description : null,
    category: category ? { ...category.name } : { es: '', en: '' },
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
