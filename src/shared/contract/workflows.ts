import { z } from 'zod';
import { ZBilingual } from './common.js';

export const QUESTION_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox'] as const;
export const INTERACTION_TYPES = ['chatbot', 'survey'] as const;
export type TInteractionType = (typeof INTERACTION_TYPES)[number];

export const ZSurveyQuestion = z.object({
  id: z.string().min(1).max(64),
  /** The question in both languages; the webhook receives the one in the runner's language. */
  question: ZBilingual,
  type: z.enum(QUESTION_TYPES),
  /** Choices of select and checkbox questions; empty for the other types. */
  options: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
});
export type TSurveyQuestion = z.infer<typeof ZSurveyQuestion>;

/** A catalogue card. */
export const ZPublicWorkflow = z.object({
  id: z.uuid(),
  name: ZBilingual,
  description: ZBilingual.nullable(),
  category: ZBilingual,
  interactionType: z.enum(INTERACTION_TYPES),
  creditsPerExecution: z.number().int(),
});
export type TPublicWorkflow = z.infer<typeof ZPublicWorkflow>;

/** What the execute screen needs to run a workflow. */
export const ZPublicWorkflowDetail = ZPublicWorkflow.extend({
  welcomeMessage: ZBilingual.nullable(),
  surveyQuestions: z.array(ZSurveyQuestion),
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
  surveyQuestions?: Array<{ question: { es: string; en: string }; type: string; options?: string[] }>;
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
      if (!q.question.es.trim() || !q.question.en.trim()) {
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
    surveyQuestions: z.array(ZSurveyQuestion).max(100).default([]),
  })
  .superRefine(interactionIssues);
export type TWorkflowInput = z.input<typeof ZWorkflowInput>;
export type TWorkflowInputParsed = z.output<typeof ZWorkflowInput>;
