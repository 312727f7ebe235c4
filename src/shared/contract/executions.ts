import { z } from 'zod';
import { ZBilingual, ZLanguage } from './common.js';
import { INTERACTION_TYPES } from './workflows.js';

export const EXECUTION_STATUSES = ['pending', 'running', 'completed', 'failed', 'expired'] as const;
export const ZExecutionStatus = z.enum(EXECUTION_STATUSES);
export type TExecutionStatus = z.infer<typeof ZExecutionStatus>;
export const OUTPUT_TYPES = ['text', 'image', 'video', 'file'] as const;

/**
 * Why a run failed or expired, as a code each reader words in their own language
 * (src/shared/i18n/run-failures.ts); the technical detail (an HTTP status, the workflow's own message) stays in
 * the run's `error_message`, for admins.
 */
export const RUN_FAILURE_CODES = [
  /** No result arrived before the run's time was up. */
  'timeout',
  /** The workflow reported that it failed. */
  'workflow_failed',
  /** The workflow service answered the run with a refusal (HTTP 4xx). */
  'workflow_refused',
  /** The workflow service could not be reached, or kept failing, until the retries ran out. */
  'workflow_unreachable',
  /** The workflow's webhook address is not one the server may call. */
  'webhook_blocked',
  /** The workflow's result broke the rules (a disguised or oversized file, data nested too deep). */
  'result_refused',
] as const;
export const ZRunFailureCode = z.enum(RUN_FAILURE_CODES);
export type TRunFailureCode = z.infer<typeof ZRunFailureCode>;

/** Where a run was started: the web app, the public API, the MCP server, or a schedule of saved answers. */
export const RUN_ORIGINS = ['web', 'api', 'mcp', 'schedule', 'test'] as const;
export const ZRunOrigin = z.enum(RUN_ORIGINS);
export type TRunOrigin = z.infer<typeof ZRunOrigin>;

/**
 * The origin of an admin's test run (issue 26): never charged and left out of insights, health and counts.
 * Queries compare with this constant, as SQL text, so they hold whether or not RUN_ORIGINS lists it yet.
 */
export const TEST_RUN_ORIGIN = 'test';

export const ZStartRunRequest = z.object({
  workflowId: z.uuid(),
  language: ZLanguage.optional(),
});
export const ZStartRunResponse = z.object({ executionId: z.uuid() });

const ZTextAnswer = z.union([z.string().max(20_000), z.array(z.string().max(1000)).max(100)]);

/** A file question's answer in the complete call: the id the upload (POST /api/executions/{id}/files) gave. */
export const ZFileAnswerRef = z.object({ fileId: z.uuid() }).strict();

/**
 * One answer of a survey: its question named by `questionId` (what the web app sends) or by the question's
 * text in either language (the spec's `{ question, answer }`). The workflow receives the question's own text,
 * never the one sent. Checkbox answers are lists; a number may be a number or its numeral; a file question's
 * answer is `{ fileId }` of a file uploaded to the run.
 */
const ZRunResponseItem = z
  .object({
    questionId: z.string().min(1).max(64).optional(),
    question: z.string().max(10_000).optional(),
    answer: z.union([ZTextAnswer, z.number(), ZFileAnswerRef]),
  })
  .refine((item) => item.questionId !== undefined || item.question !== undefined, {
    message: 'Name the question: questionId or question',
    path: ['questionId'],
  });
/**
 * A survey's answers, checked as POST /api/v1/runs checks its own (required, types, options, ranges) before
 * anything is stored or charged. A chat run's are ignored: the server sends the workflow the conversation it
 * kept.
 */
export const ZCompleteRunRequest = z.object({
  responses: z.array(ZRunResponseItem).max(200),
});
export type TCompleteRunRequest = z.infer<typeof ZCompleteRunRequest>;

/** A file answer as the run keeps it (and its page shows it): which file, under which name. */
export const ZStoredFileAnswer = z.object({
  fileId: z.uuid(),
  filename: z.string(),
  contentType: z.string(),
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
  contentType: z.string(),
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
  /** Where the run was started: the web app, the public API, MCP, or a schedule of saved answers. */
  origin: ZRunOrigin,
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
  /** Why a failed or expired run ended so; null otherwise. The web words it in the reader's language. */
  errorCode: ZRunFailureCode.nullable(),
  /** What the workflow itself said about its failure (`workflow_failed` only), as it was written. */
  workflowMessage: z.string().nullable(),
  /** Why, worded for the person in the run's language (with the workflow's message); null otherwise. */
  errorMessage: z.string().nullable(),
  /**
   * Why an ended run ended, as a code the reader's language words: `not_submitted`, the person left before
   * sending their answers (it expired or their newer runs closed it; nothing was charged unless a chat's
   * assistant had already answered, see creditsUsed and creditsRefunded). Null otherwise.
   */
  endReason: z.enum(['not_submitted']).nullable(),
  /** The workflow's latest progress message (`status: "running"` callbacks) while the run works. */
  progressMessage: z.string().nullable(),
  executionTimeMs: z.number().int().nullable(),
  /**
   * Credits given back: a failed or expired run returns everything it charged, a completed one nothing, and so
   * does a chat left after its assistant answered (charged at its first message).
   */
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
  /**
   * A pending chat's conversation so far, as the server keeps it (welcome message first), so a reopened chat
   * screen continues it; null for any other run.
   */
  conversation: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })).nullable(),
});
export type TExecutionDetail = z.infer<typeof ZExecutionDetail>;

/**
 * A history row. The snake_case and `workflow` keys repeat the camelCase ones for clients written against
 * the older row shape (`workflow`, `credits_used`, `created_at`).
 */
const ZExecutionListItem = ZExecution.extend({
  /** Null once the workflow is deleted. */
  workflow: z.object({ id: z.uuid(), name: ZBilingual }).nullable(),
  credits_used: z.number().int(),
  created_at: z.string(),
});
export type TExecutionListItem = z.infer<typeof ZExecutionListItem>;
export const ZExecutionList = z.array(ZExecutionListItem);
