import { z } from 'zod';
import { ZBilingual, ZLanguage } from './common.js';

export const EXECUTION_STATUSES = ['pending', 'running', 'completed', 'failed', 'expired'] as const;
export const ZExecutionStatus = z.enum(EXECUTION_STATUSES);
export type TExecutionStatus = z.infer<typeof ZExecutionStatus>;
export const OUTPUT_TYPES = ['text', 'image', 'video', 'file'] as const;

export const ZStartRunRequest = z.object({
  workflowId: z.uuid(),
  language: ZLanguage.optional(),
});
export const ZStartRunResponse = z.object({ executionId: z.uuid() });

/** One answer sent to the workflow: chat turns are {assistant question, user answer}; checkbox answers are lists. */
export const ZRunResponseItem = z.object({
  question: z.string().max(10_000),
  answer: z.union([z.string().max(20_000), z.array(z.string().max(1000)).max(100)]),
});
/** A survey's answers. A chat run's are ignored: the server sends the workflow the conversation it kept. */
export const ZCompleteRunRequest = z.object({
  responses: z.array(ZRunResponseItem).max(200),
});
export type TCompleteRunRequest = z.infer<typeof ZCompleteRunRequest>;

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
  resultPath: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** The workflow's latest progress message (`status: "running"` callbacks) while the run works. */
  progressMessage: z.string().nullable(),
  executionTimeMs: z.number().int().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TExecution = z.infer<typeof ZExecution>;
export const ZExecutionList = z.array(ZExecution);
