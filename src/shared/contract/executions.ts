import { z } from 'zod';
import { ZBilingual, ZLanguage } from './common.js';
import { INTERACTION_TYPES } from './workflows.js';

export const EXECUTION_STATUSES = ['pending', 'running', 'completed', 'failed', 'expired'] as const;
export const ZExecutionStatus = z.enum(EXECUTION_STATUSES);
export type TExecutionStatus = z.infer<typeof ZExecutionStatus>;
export const OUTPUT_TYPES = ['text', 'image', 'video', 'file'] as const;

export const ZStartRunRequest = z.object({
  workflowId: z.uuid(),
  language: ZLanguage.optional(),
});
export const ZStartRunResponse = z.object({ executionId: z.uuid() });

const ZTextAnswer = z.union([z.string().max(20_000), z.array(z.string().max(1000)).max(100)]);

/** A file question's answer in the complete call: the id the upload (POST /api/executions/{id}/files) gave. */
export const ZFileAnswerRef = z.object({ fileId: z.uuid() }).strict();

/**
 * One answer sent to the workflow: chat turns are {assistant question, user answer}; checkbox answers are
 * lists; a file question's answer is `{ fileId }` of a file uploaded to the run.
 */
export const ZRunResponseItem = z.object({
  question: z.string().max(10_000),
  answer: z.union([ZTextAnswer, ZFileAnswerRef]),
});
/** A survey's answers. A chat run's are ignored: the server sends the workflow the conversation it kept. */
export const ZCompleteRunRequest = z.object({
  responses: z.array(ZRunResponseItem).max(200),
});
export type TCompleteRunRequest = z.infer<typeof ZCompleteRunRequest>;

/** A file answer as the run keeps it (and its page shows it): which file, under which name. */
export const ZStoredFileAnswer = z.object({
  fileId: z.uuid(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});
export type TStoredFileAnswer = z.infer<typeof ZStoredFileAnswer>;

/** An answer as it was sent: text, a list, or a file's facts. */
export const ZSentAnswer = z.object({
  question: z.string().max(10_000),
  answer: z.union([ZTextAnswer, ZStoredFileAnswer]),
});
export type TSentAnswer = z.infer<typeof ZSentAnswer>;

/** POST /api/executions/{id}/files: the multipart fields `questionId` and `file`. */
export const ZUploadedInputFile = z.object({
  fileId: z.uuid(),
  filename: z.string(),
  size: z.number().int(),
  content_type: z.string(),
});
export type TUploadedInputFile = z.infer<typeof ZUploadedInputFile>;
export const ZRunFileParams = z.object({ id: z.uuid(), fileId: z.uuid() });
/** The signed link's query: its expiry (Unix seconds) and the HMAC over run, file and expiry. */
export const ZRunFileLinkQuery = z.object({
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** A run as its owner sees it (the complete call's answer, the detail, and each row of the history). */
export const ZExecution = z.object({
  id: z.uuid(),
  workflowId: z.uuid().nullable(),
  /** The workflow's name, or null once the workflow is deleted. */
  workflowName: ZBilingual.nullable(),
  status: ZExecutionStatus,
  creditsUsed: z.number().int(),
  outputType: z.enum(OUTPUT_TYPES).nullable(),
  outputUrl: z.string().nullable(),
  outputFilename: z.string().nullable(),
  outputSize: z.number().int().nullable(),
  outputData: z.unknown().nullable(),
  /** The stored file's key; null when there is none or it has expired. */
  resultPath: z.string().nullable(),
  /** When the stored file is (or was) deleted; null for runs without a stored file. */
  fileExpiresAt: z.string().nullable(),
  /** The stored file was deleted after its retention period (the run page and history say so). */
  fileExpired: z.boolean(),
  errorMessage: z.string().nullable(),
  /** The workflow's latest progress message (`status: "running"` callbacks) while the run works. */
  progressMessage: z.string().nullable(),
  executionTimeMs: z.number().int().nullable(),
  /** Credits given back: a failed or expired run returns everything it charged, a completed one nothing. */
  creditsRefunded: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TExecution = z.infer<typeof ZExecution>;

/**
 * A run's event stream (`GET /api/executions/{id}/events`, `GET /api/v1/runs/{id}/events`): a reader that
 * reconnects names the last event it received (EventSource does so by itself), and is sent only what it has
 * not seen. Other headers pass through untouched.
 */
export const ZRunEventsHeaders = z.looseObject({
  'last-event-id': z.string().max(64).optional(),
});

/** GET /api/executions/{id}: the run page's extra facts beyond the run itself. */
export const ZExecutionDetail = ZExecution.extend({
  interactionType: z.enum(INTERACTION_TYPES).nullable(),
  /** When the answers first reached the workflow; null until then (or if they never did). */
  dispatchedAt: z.string().nullable(),
  /** What was sent: the survey's answers, or a chat's turns as question and answer pairs; null before. */
  answers: z.array(ZSentAnswer).nullable(),
});
export type TExecutionDetail = z.infer<typeof ZExecutionDetail>;

/**
 * A history row. The snake_case and `workflow` keys repeat the camelCase ones for clients written against
 * the older row shape (`workflow`, `credits_used`, `created_at`).
 */
export const ZExecutionListItem = ZExecution.extend({
  /** Null once the workflow is deleted. */
  workflow: z.object({ id: z.uuid(), name: ZBilingual }).nullable(),
  credits_used: z.number().int(),
  created_at: z.string(),
});
export type TExecutionListItem = z.infer<typeof ZExecutionListItem>;
export const ZExecutionList = z.array(ZExecutionListItem);
