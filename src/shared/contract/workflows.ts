import { z } from 'zod';
import { ZPublicHealth } from './operations.js';
import { pickLanguage, ZBilingual } from './common.js';
import { ZRatingSummary } from './reviews.js';

export const QUESTION_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox', 'file'] as const;

/** Kinds of file a file question may accept: the same list the workflows' result files are checked against. */
export const INPUT_FILE_EXTENSIONS = ['pdf', 'csv', 'xlsx', 'txt', 'json', 'png', 'jpg', 'jpeg'] as const;
export type TInputFileExtension = (typeof INPUT_FILE_EXTENSIONS)[number];
/** The ceiling of a file answer's size; the live setting `max_input_file_mb` may lower it. */
export const MAX_INPUT_FILE_MB = 10;
export const INTERACTION_TYPES = ['chatbot', 'survey'] as const;
/** The bounds a number question's minimum and maximum stay within (whole numbers a JSON double holds exactly). */
const NUMBER_LIMIT = Number.MAX_SAFE_INTEGER;
export type TInteractionType = (typeof INTERACTION_TYPES)[number];

export const ZSurveyQuestion = z.object({
  id: z.string().min(1).max(64),
  /** The question in both languages; the webhook receives the one in the runner's language. */
  question: ZBilingual,
  type: z.enum(QUESTION_TYPES),
  /** Choices of select and checkbox questions; empty for the other types. */
  options: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  /**
   * Optional display texts per option, keyed by the option: a chosen option reaches the webhook as its label in
   * the runner's language, like the question. Options without a label are shown and sent as they are.
   */
  optionLabels: z.record(z.string().max(200), ZBilingual).optional(),
  /** File questions: the extensions accepted (all of INPUT_FILE_EXTENSIONS when absent). */
  accept: z.array(z.enum(INPUT_FILE_EXTENSIONS)).min(1).max(INPUT_FILE_EXTENSIONS.length).optional(),
  /** File questions: the largest file in MB (the setting `max_input_file_mb` when absent, never above it). */
  maxSizeMb: z.number().int().min(1).max(MAX_INPUT_FILE_MB).optional(),
  /**
   * Whether the question needs an answer. Absent on questions stored before it existed: those keep the
   * earlier rule, every type but a checkbox needs an answer (isRequiredQuestion).
   */
  required: z.boolean().optional(),
  /** Number questions: the smallest and the largest answer taken (both included). */
  min: z.number().min(-NUMBER_LIMIT).max(NUMBER_LIMIT).optional(),
  max: z.number().min(-NUMBER_LIMIT).max(NUMBER_LIMIT).optional(),
});
export type TSurveyQuestion = z.infer<typeof ZSurveyQuestion>;

/**
 * A question as an admin may send it: the text in both languages, or one plain string that serves as both
 * (the older single-language shape), stored as that same text in es and en.
 */
const ZSurveyQuestionInput = ZSurveyQuestion.extend({
  question: z.union([
    ZBilingual,
    z
      .string()
      .max(5000)
      .transform((text) => ({ es: text, en: text })),
  ]),
});

/** Whether a question needs an answer: its own flag, or (stored before the flag) every type but a checkbox. */
export const isRequiredQuestion = (q: Pick<TSurveyQuestion, 'type' | 'required'>): boolean =>
  q.required ?? q.type !== 'checkbox';

/** The extensions a file question takes: its own list, or every kind (`jpg` also stands for `jpeg`). */
export function acceptedExtensions(question: Pick<TSurveyQuestion, 'accept'>): TInputFileExtension[] {
  const list = question.accept && question.accept.length > 0 ? question.accept : [...INPUT_FILE_EXTENSIONS];
  const set = new Set<TInputFileExtension>(list);
  if (set.has('jpg') || set.has('jpeg')) {
    set.add('jpg');
    set.add('jpeg');
  }
  return INPUT_FILE_EXTENSIONS.filter((e) => set.has(e));
}

/** The largest file a question takes, in MB, given the live setting (which is the ceiling). */
export function maxFileMb(question: Pick<TSurveyQuestion, 'maxSizeMb'>, settingMb: number): number {
  return Math.min(question.maxSizeMb ?? settingMb, settingMb);
}

/** An option as the runner reads it: its label in their language, or the option itself. */
export function optionText(
  question: Pick<TSurveyQuestion, 'optionLabels'>,
  option: string,
  lng: string,
): string {
  const label = question.optionLabels?.[option];
  return label ? pickLanguage(label, lng) || option : option;
}

/** A catalogue card. */
const ZPublicWorkflow = z.object({
  id: z.uuid(),
  name: ZBilingual,
  description: ZBilingual.nullable(),
  category: ZBilingual,
  interactionType: z.enum(INTERACTION_TYPES),
  creditsPerExecution: z.number().int(),
  /** The visible reviews' mean and count. */
  rating: ZRatingSummary,
  /** Runs started so far (the "popular" order); counted in batches, so it may trail by a few seconds. */
  runCount: z.number().int().min(0),
  /** Paused while its service is checked (decision 146): shown as temporarily unavailable, not startable. */
  paused: z.boolean(),
  /** "Succeeds N% of the time", "usually takes about X": null under 20 finished runs in 30 days (decision 145). */
  health: ZPublicHealth,
});
export type TPublicWorkflow = z.infer<typeof ZPublicWorkflow>;

/** What the execute screen needs to run a workflow. */
export const ZPublicWorkflowDetail = ZPublicWorkflow.extend({
  welcomeMessage: ZBilingual.nullable(),
  surveyQuestions: z.array(ZSurveyQuestion),
  /**
   * A chat's replies come from the built-in demo assistant (no language model is configured): the screen
   * labels them so, while the replies themselves, and so the conversation the workflow receives, stay clean.
   */
  demoAssistant: z.boolean(),
});
export type TPublicWorkflowDetail = z.infer<typeof ZPublicWorkflowDetail>;

export const ZPublicWorkflowList = z.array(ZPublicWorkflow);

const nonBlank = (max: number) => z.string().trim().min(1).max(max);
const ZRequiredBilingual = z.object({ es: nonBlank(200), en: nonBlank(200) });
const ZOptionalBilingual = z.object({ es: z.string().trim().max(5000), en: z.string().trim().max(5000) });

/** What an interaction type needs beyond the fields' own rules. */
interface InteractionFields {
  interactionType?: TInteractionType;
  welcomeMessage?: { es: string; en: string } | null;
  aiPrompt?: string | null;
  // A plain string is the single-language form an admin may send (see ZSurveyQuestionInput).
  surveyQuestions?: Array<{
    question: { es: string; en: string } | string;
    type: string;
    options?: string[];
    min?: number | undefined;
    max?: number | undefined;
  }>;
}

/**
 * A chatbot's welcome message and prompt, a survey's questions. Exported so a form can report these together
 * with the fields' own problems: zod runs an object's refinements only once every field is valid.
 */
export function interactionIssues(w: InteractionFields, ctx: z.RefinementCtx): void {
  const surveyQuestions = w.surveyQuestions ?? [];
  if ((w.interactionType ?? 'chatbot') === 'chatbot') {
    if (!w.welcomeMessage?.es || !w.welcomeMessage.en) {
      ctx.addIssue({
        code: 'custom',
        path: ['welcomeMessage'],
        message: 'A chatbot needs a welcome message in both languages',
      });
    }
    if (!w.aiPrompt)
      ctx.addIssue({ code: 'custom', path: ['aiPrompt'], message: 'A chatbot needs an AI prompt' });
  } else {
    if (surveyQuestions.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['surveyQuestions'],
        message: 'A survey needs at least one question',
      });
    }
    surveyQuestions.forEach((q, i) => {
      const text = typeof q.question === 'string' ? { es: q.question, en: q.question } : q.question;
      if (!text.es.trim() || !text.en.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: ['surveyQuestions', i, 'question'],
          message: 'Every question needs its text',
        });
      }
      if ((q.type === 'select' || q.type === 'checkbox') && (q.options ?? []).length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['surveyQuestions', i, 'options'],
          message: 'Select and checkbox questions need options',
        });
      }
      if (q.type !== 'number' && (q.min !== undefined || q.max !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['surveyQuestions', i, q.min !== undefined ? 'min' : 'max'],
          message: 'Only number questions take a minimum and a maximum',
        });
      }
      if (q.min !== undefined && q.max !== undefined && q.min > q.max) {
        ctx.addIssue({
          code: 'custom',
          path: ['surveyQuestions', i, 'max'],
          message: 'The maximum must not be below the minimum',
        });
      }
    });
  }
}

/** An admin's workflow form (create page and edit modal); the server applies the same rules. */
export const ZWorkflowInput = z
  .object({
    userId: z.uuid(),
    name: ZRequiredBilingual,
    description: ZOptionalBilingual.nullable().optional(),
    category: ZRequiredBilingual,
    webhookUrl: z.url({ protocol: /^https?$/ }).max(2000),
    isPublic: z.boolean().default(false),
    isActive: z.boolean().default(true),
    creditsPerExecution: z.number().int().min(1).max(10000).default(1),
    interactionType: z.enum(INTERACTION_TYPES).default('chatbot'),
    welcomeMessage: ZOptionalBilingual.nullable().optional(),
    aiPrompt: z.string().trim().max(20000).nullable().optional(),
    surveyQuestions: z.array(ZSurveyQuestionInput).max(100).default([]),
  })
  .superRefine(interactionIssues);
export type TWorkflowInput = z.input<typeof ZWorkflowInput>;
export type TWorkflowInputParsed = z.output<typeof ZWorkflowInput>;
