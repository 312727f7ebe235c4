import { z } from 'zod';
import { ZWebhookUrl } from './webhooks.js';
import { ZLanguage } from './common.js';
import { OUTPUT_TYPES, ZExecutionStatus, ZRunFailureCode } from './executions.js';
import { INTERACTION_TYPES } from './workflows.js';

/*
 * The public API under /api/v1, authorised only by `Authorization: Bearer flj_...` (a personal API key).
 */

/** GET /api/v1/me. */
export const ZApiMe = z.object({
  userId: z.uuid(),
  /** The account's credit balance. */
  balance: z.number().int(),
  /** Credits this key charged in the current calendar month (UTC). */
  spentThisMonth: z.number().int(),
  /** The key's monthly credit limit; null when only the balance limits it. */
  monthlyCreditLimit: z.number().int().nullable(),
});
export type TApiMe = z.infer<typeof ZApiMe>;

/** `?lang=es|en`: the language of names, descriptions and questions; the key owner's language by default. */
export const ZApiLangQuery = z.object({ lang: ZLanguage.optional() });

/** A public active workflow as the API shows it, in one language. */
export const ZApiWorkflow = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  language: ZLanguage,
  interactionType: z.enum(INTERACTION_TYPES),
  creditsPerExecution: z.number().int(),
  /** A survey's answers as a JSON Schema (an object keyed by question id); null for a chat. */
  inputSchema: z.record(z.string(), z.unknown()).nullable(),
});
export type TApiWorkflow = z.infer<typeof ZApiWorkflow>;
export const ZApiWorkflowList = z.object({ workflows: z.array(ZApiWorkflow) });

/** The longest `wait` a start may ask for, in seconds. */
const API_RUN_WAIT_MAX = 60;

/** POST /api/v1/runs: a workflow with its answers, or saved answers (`savedInputId`), never both. */
export const ZApiRunCreate = z.object({
  workflowId: z.uuid().optional(),
  /** A survey's answers keyed by question id, checked against the workflow's `inputSchema`. */
  answers: z.record(z.string().max(64), z.unknown()).optional(),
  /** Saved answers of the key owner (GET /api/v1/saved-inputs): their workflow runs with them. */
  savedInputId: z.uuid().optional(),
  /** Seconds to hold the answer until the run ends (0 to answer at once). */
  wait: z.number().int().min(0).max(API_RUN_WAIT_MAX).optional(),
  lang: ZLanguage.optional(),
  /**
   * Your own address for this run's ending (`run.completed`, `run.failed` or `run.expired`), signed per Standard
   * Webhooks with your account's run webhook secret; https, and never a private address.
   */
  webhookUrl: ZWebhookUrl.optional(),
});
export type TApiRunCreate = z.infer<typeof ZApiRunCreate>;
/** A start of one workflow with its answers, whichever way it came (the body, saved answers, an MCP tool). */
export type TApiRunStart = Omit<TApiRunCreate, 'savedInputId'> & { workflowId: string };

/** A run as the API shows it. */
export const ZApiRun = z.object({
  id: z.uuid(),
  workflowId: z.uuid().nullable(),
  status: ZExecutionStatus,
  creditsUsed: z.number().int(),
  creditsRefunded: z.number().int(),
  /** `text`, `image`, `video` or `file` once the run completed. */
  outputType: z.enum(OUTPUT_TYPES).nullable(),
  /** The workflow's text or data. */
  outputData: z.unknown().nullable(),
  /** A stored result file: fetch it with the same key. */
  resultUrl: z.string().nullable(),
  /** A result the workflow left at its own address. */
  outputUrl: z.string().nullable(),
  outputFilename: z.string().nullable(),
  outputSize: z.number().int().nullable(),
  progressMessage: z.string().nullable(),
  /** Why a failed or expired run ended so (`timeout`, `workflow_failed`, ...): act on this. */
  errorCode: ZRunFailureCode.nullable(),
  /** What the workflow itself said about its failure (`workflow_failed` only). */
  workflowMessage: z.string().nullable(),
  /** Why in plain words, in the run's language (the `lang` it was started with), with the workflow's message. */
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TApiRun = z.infer<typeof ZApiRun>;

/** POST /api/v1/runs answered for a chat workflow: the run, waiting for its conversation, and its opening. */
export const ZApiRunStarted = ZApiRun.extend({
  /** A chat's first assistant message, in the run's language: answer it with the first message. */
  welcomeMessage: z.string().nullable().optional(),
  /**
   * The secret that signs the deliveries to `webhookUrl` (whsec_...), in the answer of the first run that asked
   * for one only; POST /api/v1/webhooks/run-secret makes a new one.
   */
  webhookSecret: z.string().optional(),
});
export type TApiRunStarted = z.infer<typeof ZApiRunStarted>;

/** POST /api/v1/runs/{id}/messages: the person's next message in a chat run. */
export const ZApiChatMessageCreate = z.object({
  /** At most `chat_max_message_chars` characters (a live setting, 2,000 by default). */
  content: z.string().min(1).max(8000),
  /** The assistant's language; the run's by default. */
  lang: ZLanguage.optional(),
  /** When the reply ends the conversation: seconds to hold the answer for the run's result. */
  wait: z.number().int().min(0).max(API_RUN_WAIT_MAX).optional(),
});
export type TApiChatMessageCreate = z.infer<typeof ZApiChatMessageCreate>;

/** The assistant's reply to a message (and, streamed, the `done` event). */
export const ZApiChatReply = z.object({
  /** The reply as the person reads it (without the completion marker). */
  content: z.string(),
  /** The reply ended the conversation: the run was submitted to the workflow with the conversation. */
  done: z.boolean(),
  /** Messages the run still allows. */
  remaining: z.number().int().min(0),
  run: ZApiRun,
});
export type TApiChatReply = z.infer<typeof ZApiChatReply>;
