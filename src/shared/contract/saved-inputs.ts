import { z } from 'zod';
import { ZBilingual, ZLanguage } from './common.js';
import { ZExecutionStatus, ZRunOrigin } from './executions.js';

/*
 * Saved answers ("saved inputs"): a survey's answers kept under a name and run again without the form, from
 * the web app (cookie routes under /api/saved-inputs), the public API (/api/v1/saved-inputs) and MCP
 * (`run_saved_input`). Chats cannot be saved: a chat run is a conversation.
 */

export const SAVED_INPUT_NAME_MAX = 100;

/** A name: trimmed, 1 to 100 characters, unique per person and workflow whatever its case. */
const ZSavedInputName = z.string().trim().min(1).max(SAVED_INPUT_NAME_MAX);

/** Answers keyed by question id, as POST /api/v1/runs takes them (checked the same way). */
const ZSavedAnswers = z.record(z.string().max(64), z.unknown());

/** POST /api/saved-inputs and POST /api/v1/saved-inputs. */
export const ZSavedInputCreate = z.object({
  workflowId: z.uuid(),
  name: ZSavedInputName,
  answers: ZSavedAnswers,
  /** The language the runs are sent in (the questions' texts and option labels); the person's by default. */
  lang: ZLanguage.optional(),
  /**
   * The survey form's own run: a file answer `{ fileId }` naming a file uploaded to it for that question is
   * copied to the saved answers. Otherwise a file question's answer is kept with PUT .../files/{questionId}.
   */
  runId: z.uuid().optional(),
});
export type TSavedInputCreate = z.infer<typeof ZSavedInputCreate>;

/** POST /api/saved-inputs/from-run: the answers of one of the person's survey runs, under a name. */
export const ZSavedInputFromRun = z.object({
  runId: z.uuid(),
  name: ZSavedInputName,
});
export type TSavedInputFromRun = z.infer<typeof ZSavedInputFromRun>;

/** PATCH: a new name, new answers (all of them, checked again), or both. */
export const ZSavedInputUpdate = z
  .object({
    name: ZSavedInputName.optional(),
    answers: ZSavedAnswers.optional(),
    lang: ZLanguage.optional(),
    /** As in creation: the form's run whose uploaded files the new answers name. */
    runId: z.uuid().optional(),
  })
  .refine((u) => u.name !== undefined || u.answers !== undefined || u.lang !== undefined, {
    message: 'Send name, answers or lang',
    path: ['name'],
  });
export type TSavedInputUpdate = z.infer<typeof ZSavedInputUpdate>;

/** What no longer fits in saved answers whose workflow changed: the field and what to fix, in the reader's language. */
const ZSavedInputProblem = z.object({
  field: z.string(),
  message: z.string(),
  /** What is wrong, as a key (`answerFileRequired`: a file question waits for its file). */
  key: z.string(),
});

/** A file kept with saved answers as one file question's answer (its answer is `{ fileId }`). */
const ZSavedInputFile = z.object({
  questionId: z.string(),
  fileId: z.uuid(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

/** PUT /api/saved-inputs/{id}/files/{questionId} (and under /api/v1): the question's file answer. */
export const ZSavedInputFileParams = z.object({ id: z.uuid(), questionId: z.string().min(1).max(64) });

export const ZSavedInput = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  workflowName: ZBilingual,
  name: z.string(),
  answers: z.record(z.string(), z.unknown()),
  /** The files kept as answers to file questions (uploaded with PUT .../files/{questionId}). */
  files: z.array(ZSavedInputFile),
  lang: ZLanguage,
  /** The workflow's questions changed and the answers no longer fit: they are not sent until saved again. */
  needsReview: z.boolean(),
  /** Empty unless `needsReview`. */
  reviewProblems: z.array(ZSavedInputProblem),
  /** The latest run started from these answers, by anyone's way in (web, API, MCP, schedule). */
  lastRun: z
    .object({ id: z.uuid(), status: ZExecutionStatus, origin: ZRunOrigin, createdAt: z.string() })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSavedInput = z.infer<typeof ZSavedInput>;

export const ZSavedInputList = z.object({
  savedInputs: z.array(ZSavedInput),
  /** How many more the account may keep (`saved_inputs_per_account`). */
  limit: z.number().int(),
});
export type TSavedInputList = z.infer<typeof ZSavedInputList>;

/** POST /api/saved-inputs/{id}/run: the run started, for its page. */
export const ZSavedInputRunStarted = z.object({ executionId: z.uuid() });
