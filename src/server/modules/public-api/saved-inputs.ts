import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { TLanguage } from '#shared/contract/common.js';
import { type TStoredFileAnswer, ZFileAnswerRef, ZSentAnswer } from '#shared/contract/executions.js';
import type {
  TSavedInput,
  TSavedInputCreate,
  TSavedInputFromRun,
  TSavedInputUpdate,
} from '#shared/contract/saved-inputs.js';
import { type AnswerProblem, checkSurveyAnswers, type FileAnswerOf } from '#shared/contract/survey-schema.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import { errorText } from '#shared/i18n/errors.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import {
  runInputFiles,
  savedInputFiles,
  savedInputs,
  type SavedInputReviewProblem,
  userProfiles,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { preparedPerHandle } from '#server/db/prepared.js';
import { isUniqueViolation } from '#server/db/sql-helpers.js';
import { AppError, badRequest, notFound } from '#server/lib/errors.js';
import { isStorageKey, resultStorageFor } from '#server/providers/storage/index.js';
import type { AppDeps } from '#server/types.js';
import type { ApiPrincipal } from '../apikeys/service.js';
import { toSessionUser } from '../auth/service.js';
import { type ApiRunContext, type ApiRunOutcome, startApiRun } from './api-runs.js';
import {
  AnswersRefused,
  checkFileFor,
  copyFilesForRun,
  deliverClaimed,
  fileQuestion,
  problemText,
  START_SETTINGS,
  type StartedRun,
  type StartSettings,
  startRun,
  surveyAnswersOrThrow,
  takeSavedInputFileKeys,
  type UploadedInput,
  WEBHOOK_TARGET_FIELDS,
} from '../executions/service.js';
import { allowedExtension, queueFileDeletions, removeQueuedFiles } from '../results/service.js';
import { getSetting, getSettings } from '../settings/service.js';
import { visibleTo } from '../workflows/service.js';

/*
 * Saved answers: a survey's answers kept under a name and run again without the form. Every run of them goes
 * through the run service every other start uses (startRun, or startApiRun for a key's caller), after the
 * answers were checked against the workflow's questions as they are now: answers that no longer fit are
 * marked "needs review" and never sent.
 */

type SavedRow = typeof savedInputs.$inferSelect;

const WORKFLOW_FIELDS = {
  workflowName: userWorkflows.name,
  interactionType: userWorkflows.interactionType,
  surveyQuestions: userWorkflows.surveyQuestions,
};

/** Refused in the reader's language: the workflow changed and the answers must be fixed first (409). */
class SavedInputNeedsReview extends AppError<'CONFLICT'> {
  constructor(
    readonly problems: AnswerProblem[],
    language: TLanguage,
  ) {
    super(
      'CONFLICT',
      {
        key: 'savedInputNeedsReview',
        params: { problems: problems.map((p) => problemText(p, 'en')).join('; ') },
      },
      { fields: reviewMessages(problems, language) },
    );
  }

  override messageIn(language: TLanguage): string {
    const problems = this.problems.map((p) => problemText(p, language)).join('; ');
    return errorText(language, 'CONFLICT', 'savedInputNeedsReview', { problems });
  }
}

function reviewMessages(problems: SavedInputReviewProblem[], language: TLanguage) {
  return problems.map((p) => ({
    field: p.field,
    message: errorText(language, 'VALIDATION_ERROR', p.key, p.params),
    key: p.key,
  }));
}

/** Only surveys keep answers (a chat needs its conversation). */
function refuseUnsaveable(workflow: { interactionType: string }) {
  if (workflow.interactionType === 'chatbot') {
    throw badRequest('chatCannotBeSaved', { fields: [{ field: 'workflowId', message: 'a chat workflow' }] });
  }
}

type SavedFile = typeof savedInputFiles.$inferSelect;

/** Read at every start of saved answers (each due schedule's among them), so prepared once per connection. */
const savedFilesQuery = preparedPerHandle((db) =>
  db
    .select()
    .from(savedInputFiles)
    .where(eq(savedInputFiles.savedInputId, sql.placeholder('savedInputId')))
    .prepare('saved_input_files'),
);
const filesOf = (db: DbOrTx, savedInputId: string) => savedFilesQuery(db).execute({ savedInputId });

/**
 * How a file question's saved answer `{ fileId }` becomes the file's facts: a file kept with these saved
 * answers for that very question (decision 159); anything else names none (the check's answerFileUnknown).
 */
function savedFileAnswers(files: SavedFile[]): FileAnswerOf<TStoredFileAnswer> {
  return (question, value) => {
    const fileId = ZFileAnswerRef.safeParse(value).data?.fileId;
    const file = files.find((f) => f.id === fileId && f.questionId === question.id);
    return file
      ? { fileId: file.id, filename: file.filename, contentType: file.contentType, size: file.size }
      : null;
  };
}

/**
 * Answers being saved, checked as a run's are, except that a file question may be left for its upload
 * (PUT .../files/{questionId}): until then the saved answers need review, so they are never sent without it.
 */
function checkForSaving(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
  language: TLanguage,
  files: SavedFile[],
): void {
  const checked = checkSurveyAnswers(questions, answers, language, savedFileAnswers(files));
  if (checked.ok) return;
  const problems = checked.problems.filter((p) => p.key !== 'answerFileRequired');
  if (problems.length > 0) throw new AnswersRefused(problems, language);
}

/**
 * The answers as they are kept: a choice by its option (not its label in one language), a number as a
 * number, text trimmed; an optional question left empty is left out. Only called on answers that passed the
 * check, so every value has its question's shape.
 */
function keptAnswers(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const option = (q: TSurveyQuestion, v: unknown) =>
    q.options.find((o) => o === v) ??
    q.options.find((o) => q.optionLabels?.[o]?.es === v || q.optionLabels?.[o]?.en === v) ??
    v;
  const kept: Record<string, unknown> = {};
  for (const q of questions) {
    const v = Object.hasOwn(answers, q.id) ? answers[q.id] : undefined;
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (q.type === 'select') kept[q.id] = option(q, v);
    else if (q.type === 'checkbox' && Array.isArray(v)) kept[q.id] = v.map((x) => option(q, x));
    else if (q.type === 'number') kept[q.id] = Number(typeof v === 'string' ? v.trim() : v);
    else kept[q.id] = typeof v === 'string' ? v.trim() : v;
  }
  return kept;
}

/** The problems of saved answers against the questions as they are now; empty when they fit. */
function reviewProblems(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
  language: TLanguage,
  files: SavedFile[],
): AnswerProblem[] {
  const checked = checkSurveyAnswers(questions, answers, language, savedFileAnswers(files));
  return checked.ok ? [] : checked.problems;
}

const stored = (problems: AnswerProblem[]): SavedInputReviewProblem[] | null =>
  problems.length === 0
    ? null
    : problems.map((p) => ({ field: p.field, key: p.key, ...(p.params ? { params: p.params } : {}) }));

/**
 * The review state of saved answers, as the workflow's questions are now: read wherever saved answers are
 * shown or run, and written back when it changed, so "needs review" follows any change of the workflow (new
 * questions, options gone, types changed) without every change of a workflow having to find its saved answers.
 * A workflow turned into a chat takes no answers at all: running them says so (chatCannotBeSaved).
 */
async function currentReview(
  db: DbOrTx,
  saved: SavedRow,
  workflow: { interactionType: string; surveyQuestions: TSurveyQuestion[] },
  read?: SavedFile[],
): Promise<{ saved: SavedRow; files: SavedFile[] }> {
  const files = read ?? (await filesOf(db, saved.id));
  if (workflow.interactionType === 'chatbot') return { saved, files };
  const reason = stored(reviewProblems(workflow.surveyQuestions, saved.answers, saved.language, files));
  if (JSON.stringify(reason) === JSON.stringify(saved.reviewReason)) return { saved, files };
  await db
    .update(savedInputs)
    .set({ needsReview: reason !== null, reviewReason: reason })
    .where(eq(savedInputs.id, saved.id));
  return { saved: { ...saved, needsReview: reason !== null, reviewReason: reason }, files };
}

interface ListedRow {
  saved: SavedRow;
  files: SavedFile[];
  workflowName: TSavedInput['workflowName'];
  interactionType: string;
  surveyQuestions: TSurveyQuestion[];
  lastRun: { id: string; status: string; origin: string; createdAt: Date } | null;
}

function toSavedInput({ saved, files, workflowName, lastRun }: ListedRow, language: TLanguage): TSavedInput {
  return {
    id: saved.id,
    workflowId: saved.workflowId,
    workflowName,
    name: saved.name,
    answers: saved.answers,
    files: files.map((f) => ({
      questionId: f.questionId,
      fileId: f.id,
      filename: f.filename,
      contentType: f.contentType,
      size: f.size,
    })),
    lang: saved.language,
    needsReview: saved.needsReview,
    reviewProblems: reviewMessages(saved.reviewReason ?? [], language),
    lastRun: lastRun
      ? {
          id: lastRun.id,
          status: lastRun.status as NonNullable<TSavedInput['lastRun']>['status'],
          origin: lastRun.origin as NonNullable<TSavedInput['lastRun']>['origin'],
          createdAt: lastRun.createdAt.toISOString(),
        }
      : null,
    createdAt: saved.createdAt.toISOString(),
    updatedAt: saved.updatedAt.toISOString(),
  };
}

function listQuery(db: DbOrTx, userId: string, id?: string) {
  return db
    .select({
      saved: savedInputs,
      ...WORKFLOW_FIELDS,
      lastRun: {
        id: workflowExecutions.id,
        status: workflowExecutions.status,
        origin: workflowExecutions.origin,
        createdAt: workflowExecutions.createdAt,
      },
    })
    .from(savedInputs)
    .innerJoin(userWorkflows, eq(userWorkflows.id, savedInputs.workflowId))
    .leftJoin(workflowExecutions, eq(workflowExecutions.id, savedInputs.lastRunId))
    .where(and(eq(savedInputs.userId, userId), id === undefined ? undefined : eq(savedInputs.id, id)))
    .orderBy(desc(savedInputs.createdAt), desc(savedInputs.id));
}

/** The person's saved answers, newest first, with how many the account may keep. */
export async function listSavedInputs(
  deps: AppDeps,
  userId: string,
  language: TLanguage,
): Promise<{ savedInputs: TSavedInput[]; limit: number }> {
  const [rows, limit] = await Promise.all([
    listQuery(deps.db, userId),
    getSetting(deps.db, 'saved_inputs_per_account'),
  ]);
  const listed: TSavedInput[] = [];
  for (const row of rows) {
    listed.push(toSavedInput({ ...row, ...(await currentReview(deps.db, row.saved, row)) }, language));
  }
  return { savedInputs: listed, limit };
}

/** One of the person's saved answers; anyone else's are "not found", so their existence is not revealed. */
export async function getSavedInput(
  db: DbOrTx,
  userId: string,
  id: string,
  language: TLanguage,
): Promise<TSavedInput> {
  const [row] = await listQuery(db, userId, id);
  if (!row) throw notFound('savedInput');
  return toSavedInput({ ...row, ...(await currentReview(db, row.saved, row)) }, language);
}

/** A workflow the person may run: active, and public unless they are an admin. */
async function runnableWorkflow(db: DbOrTx, user: TSessionUser, workflowId: string) {
  const [workflow] = await db
    .select({ id: userWorkflows.id, ...WORKFLOW_FIELDS })
    .from(userWorkflows)
    .where(and(eq(userWorkflows.id, workflowId), visibleTo(user.isAdmin ? 'admin' : 'public')));
  if (!workflow) throw notFound('workflow');
  return workflow;
}

const nameTaken = (name: string) =>
  new AppError('CONFLICT', { key: 'savedInputNameTaken', params: { name } });

/** Files copied to saved answers being created (from a run's uploads), their bytes already stored. */
type CarriedFile = Omit<SavedFile, 'savedInputId' | 'createdAt'>;

/**
 * Keeps answers under a name: for a survey the person may run, checked as a run's answers are (400 naming
 * every problem; a file question may wait for its upload, decision 159), within the account's
 * `saved_inputs_per_account` (409), under a name the person has not used for this workflow (409). Nothing is
 * stored unless all of that holds; `carried` files (bytes stored already) are kept with them, or removed.
 */
export async function createSavedInput(
  deps: AppDeps,
  user: TSessionUser,
  input: TSavedInputCreate,
  fromRun: CarriedFile[] = [],
): Promise<TSavedInput> {
  const adopted = await adoptRunFiles(deps, user, input.runId, input.answers);
  const carried = [...fromRun, ...adopted.carried];
  input = { ...input, answers: adopted.answers };
  const carriedFiles: SavedFile[] = carried.map((f) => ({ ...f, savedInputId: '', createdAt: deps.now() }));
  let id: string;
  try {
    const language = input.lang ?? user.language;
    const workflow = await runnableWorkflow(deps.db, user, input.workflowId);
    refuseUnsaveable(workflow);
    checkForSaving(workflow.surveyQuestions, input.answers, user.language, carriedFiles);
    const answers = keptAnswers(workflow.surveyQuestions, input.answers);
    const limit = await getSetting(deps.db, 'saved_inputs_per_account');
    id = await deps.db.transaction(async (tx) => {
      // Locked so that concurrent saves count each other's rows.
      await tx
        .select({ id: userProfiles.id })
        .from(userProfiles)
        .where(eq(userProfiles.id, user.id))
        .for('update');
      const [held] = await tx.select({ n: count() }).from(savedInputs).where(eq(savedInputs.userId, user.id));
      if ((held?.n ?? 0) >= limit) {
        throw new AppError('CONFLICT', { key: 'tooManySavedInputs', params: { max: limit } });
      }
      const [row] = await tx
        .insert(savedInputs)
        .values({ userId: user.id, workflowId: workflow.id, name: input.name, answers, language })
        .returning({ id: savedInputs.id });
      if (!row) throw new Error('saved input insert returned nothing');
      if (carried.length > 0) {
        await tx.insert(savedInputFiles).values(carried.map((f) => ({ ...f, savedInputId: row.id })));
      }
      return row.id;
    });
  } catch (err) {
    await removeStored(
      deps,
      carried.map((f) => f.storageKey),
    );
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
  return getSavedInput(deps.db, user.id, id, user.language);
}

/** Bytes stored for rows that were never written: removed at once (a store error leaves them for nobody). */
async function removeStored(deps: AppDeps, keys: string[]): Promise<void> {
  const storage = resultStorageFor(deps.config);
  await Promise.all(keys.map((k) => storage.remove(k).catch(() => undefined)));
}

/**
 * Keeps the answers one of the person's survey runs sent (the result screen's and run page's "save these
 * answers"), in that run's language. The run sent each question's text and each choice's label; they are
 * matched back to the workflow's questions and options as they are now, and checked like any saved answers.
 * The files it was sent are copied to the saved answers while the run still holds them (decision 159); one
 * gone already leaves its question to be uploaded again (the saved answers then need review).
 */
export async function createSavedInputFromRun(
  deps: AppDeps,
  user: TSessionUser,
  input: TSavedInputFromRun,
): Promise<TSavedInput> {
  const [run] = await deps.db
    .select({
      workflowId: workflowExecutions.workflowId,
      inputData: workflowExecutions.inputData,
      language: workflowExecutions.language,
    })
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.id, input.runId), eq(workflowExecutions.userId, user.id)));
  if (!run) throw notFound('execution');
  const workflow = await runnableWorkflow(deps.db, user, run.workflowId);
  refuseUnsaveable(workflow);
  const sent = ZSentAnswer.array().safeParse(run.inputData);
  const answers: Record<string, unknown> = {};
  const wanted: Array<{ questionId: string; fileId: string }> = [];
  for (const item of sent.success ? sent.data : []) {
    const q = workflow.surveyQuestions.find(
      (x) => x.question.es.trim() === item.question.trim() || x.question.en.trim() === item.question.trim(),
    );
    if (!q) continue;
    if (q.type !== 'file') answers[q.id] = item.answer;
    else if (typeof item.answer === 'object' && !Array.isArray(item.answer)) {
      wanted.push({ questionId: q.id, fileId: item.answer.fileId });
    }
  }
  const carried = await copyRunFiles(deps, input.runId, wanted);
  for (const f of carried) answers[f.questionId] = { fileId: f.id };
  return createSavedInput(
    deps,
    user,
    { workflowId: run.workflowId, name: input.name, answers, lang: run.language },
    carried,
  );
}

/**
 * Answers from the survey form (`runId`: the form's own run): a file answer `{ fileId }` naming a file uploaded
 * to that run for that very question is copied to the saved answers, and the answer names the copy. The run
 * must be the person's (404 otherwise); other answers are left as they are, for the check.
 */
async function adoptRunFiles(
  deps: AppDeps,
  user: TSessionUser,
  runId: string | undefined,
  answers: Record<string, unknown>,
): Promise<{ answers: Record<string, unknown>; carried: CarriedFile[] }> {
  if (runId === undefined) return { answers, carried: [] };
  const [run] = await deps.db
    .select({ id: workflowExecutions.id })
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, user.id)));
  if (!run) throw notFound('execution');
  const wanted = Object.entries(answers).flatMap(([questionId, v]) => {
    const fileId = ZFileAnswerRef.safeParse(v).data?.fileId;
    return fileId ? [{ questionId, fileId }] : [];
  });
  const carried = await copyRunFiles(deps, runId, wanted);
  const rewritten = { ...answers };
  for (const f of carried) rewritten[f.questionId] = { fileId: f.id };
  return { answers: rewritten, carried };
}

/** Copies of the run's uploaded files that `wanted` names, as files of saved answers to be created. */
async function copyRunFiles(
  deps: AppDeps,
  runId: string,
  wanted: Array<{ questionId: string; fileId: string }>,
): Promise<CarriedFile[]> {
  if (wanted.length === 0) return [];
  const storage = resultStorageFor(deps.config);
  const rows = await deps.db.select().from(runInputFiles).where(eq(runInputFiles.executionId, runId));
  const carried: CarriedFile[] = [];
  try {
    for (const w of wanted) {
      const row = rows.find((r) => r.id === w.fileId && r.questionId === w.questionId);
      const bytes = row && isStorageKey(row.storageKey) ? await storage.read(row.storageKey) : null;
      if (!row || !bytes) continue;
      const key = await storage.save(bytes, allowedExtension(row.filename) ?? 'bin');
      carried.push({
        id: randomUUID(),
        questionId: w.questionId,
        storageKey: key,
        filename: row.filename,
        contentType: row.contentType,
        size: row.size,
      });
    }
  } catch (err) {
    await removeStored(
      deps,
      carried.map((f) => f.storageKey),
    );
    throw err;
  }
  return carried;
}

async function ownRow(db: DbOrTx, userId: string, id: string): Promise<SavedRow> {
  const [row] = await db
    .select()
    .from(savedInputs)
    .where(and(eq(savedInputs.id, id), eq(savedInputs.userId, userId)));
  if (!row) throw notFound('savedInput');
  return row;
}

/** Before an upload's body is read: the saved answers are the caller's (404 otherwise). */
export async function assertOwnSavedInput(db: DbOrTx, userId: string, id: string): Promise<void> {
  await ownRow(db, userId, id);
}

/**
 * Renames saved answers, replaces their answers (all of them, checked against the questions as they are now:
 * saving them again is how answers under review are fixed), or changes their language. A kept file stays
 * while the new answers name it (`{ fileId }`); one they no longer name is removed with its bytes.
 */
export async function updateSavedInput(
  deps: AppDeps,
  user: TSessionUser,
  id: string,
  patch: TSavedInputUpdate,
): Promise<TSavedInput> {
  const row = await ownRow(deps.db, user.id, id);
  const changes: Partial<typeof savedInputs.$inferInsert> = { updatedAt: deps.now() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.lang !== undefined) changes.language = patch.lang;
  let dropped: SavedFile[] = [];
  let carried: CarriedFile[] = [];
  if (patch.answers !== undefined) {
    const workflow = await runnableWorkflow(deps.db, user, row.workflowId);
    refuseUnsaveable(workflow);
    const files = await filesOf(deps.db, row.id);
    const adopted = await adoptRunFiles(deps, user, patch.runId, patch.answers);
    carried = adopted.carried;
    const now = deps.now();
    const candidates = [...files, ...carried.map((f) => ({ ...f, savedInputId: row.id, createdAt: now }))];
    try {
      checkForSaving(workflow.surveyQuestions, adopted.answers, user.language, candidates);
    } catch (err) {
      await removeStored(
        deps,
        carried.map((f) => f.storageKey),
      );
      throw err;
    }
    changes.answers = keptAnswers(workflow.surveyQuestions, adopted.answers);
    const named = new Set(
      Object.values(changes.answers).map((v) => ZFileAnswerRef.safeParse(v).data?.fileId),
    );
    dropped = files.filter((f) => !named.has(f.id));
    changes.needsReview = false;
    changes.reviewReason = null;
  }
  try {
    await deps.db.transaction(async (tx) => {
      await tx.update(savedInputs).set(changes).where(eq(savedInputs.id, row.id));
      // The files no longer named go first: a new file for the same question takes its place.
      if (dropped.length > 0) {
        await tx.delete(savedInputFiles).where(
          inArray(
            savedInputFiles.id,
            dropped.map((f) => f.id),
          ),
        );
        await queueFileDeletions(
          tx,
          dropped.map((f) => f.storageKey),
        );
      }
      if (carried.length > 0) {
        await tx.insert(savedInputFiles).values(carried.map((f) => ({ ...f, savedInputId: row.id })));
      }
    });
  } catch (err) {
    await removeStored(
      deps,
      carried.map((f) => f.storageKey),
    );
    if (isUniqueViolation(err)) throw nameTaken(patch.name ?? row.name);
    throw err;
  }
  // A store error leaves them queued for the retention job.
  await removeQueuedFiles(
    deps,
    dropped.map((f) => f.storageKey),
  ).catch(() => 0);
  return getSavedInput(deps.db, user.id, id, user.language);
}

/**
 * PUT /api/saved-inputs/{id}/files/{questionId} (and under /api/v1): keeps a file as the answer to one file
 * question of the person's saved answers, replacing the one kept before. Checked exactly as a run's upload
 * (checkFileFor: the question's extensions and size, the bytes), stored in the same store; nothing is kept
 * unless all of that holds.
 */
export async function putSavedInputFile(
  deps: AppDeps,
  user: TSessionUser,
  id: string,
  questionId: string,
  file: UploadedInput,
): Promise<TSavedInput> {
  const row = await ownRow(deps.db, user.id, id);
  const workflow = await runnableWorkflow(deps.db, user, row.workflowId);
  refuseUnsaveable(workflow);
  const question = fileQuestion(workflow.surveyQuestions, questionId);
  const checked = await checkFileFor(deps, question, file);
  const storage = resultStorageFor(deps.config);
  const key = await storage.save(file.bytes, checked.extension);
  let replaced: string[];
  try {
    replaced = await deps.db.transaction(async (tx) => {
      // Locked, so two uploads for one question cannot both keep their file.
      const [locked] = await tx
        .select({ answers: savedInputs.answers })
        .from(savedInputs)
        .where(and(eq(savedInputs.id, id), eq(savedInputs.userId, user.id)))
        .for('update');
      if (!locked) throw notFound('savedInput');
      const removed = await tx
        .delete(savedInputFiles)
        .where(and(eq(savedInputFiles.savedInputId, id), eq(savedInputFiles.questionId, questionId)))
        .returning({ key: savedInputFiles.storageKey });
      const [kept] = await tx
        .insert(savedInputFiles)
        .values({
          savedInputId: id,
          questionId,
          storageKey: key,
          filename: checked.filename,
          contentType: checked.contentType,
          size: file.bytes.length,
        })
        .returning({ id: savedInputFiles.id });
      if (!kept) throw new Error('the file row was not inserted');
      await tx
        .update(savedInputs)
        .set({ answers: { ...locked.answers, [questionId]: { fileId: kept.id } }, updatedAt: deps.now() })
        .where(eq(savedInputs.id, id));
      const keys = removed.map((r) => r.key);
      await queueFileDeletions(tx, keys);
      return keys;
    });
  } catch (err) {
    await storage.remove(key).catch(() => undefined);
    throw err;
  }
  await removeQueuedFiles(deps, replaced).catch(() => 0);
  return getSavedInput(deps.db, user.id, id, user.language);
}

/** Deletes the person's saved answers (their schedule with them), and their kept files. */
export async function deleteSavedInput(deps: AppDeps, userId: string, id: string): Promise<void> {
  const keys = await deps.db.transaction(async (tx) => {
    const [own] = await tx
      .select({ id: savedInputs.id })
      .from(savedInputs)
      .where(and(eq(savedInputs.id, id), eq(savedInputs.userId, userId)))
      .for('update');
    if (!own) throw notFound('savedInput');
    const taken = await takeSavedInputFileKeys(tx, eq(savedInputs.id, id));
    await queueFileDeletions(tx, taken);
    await tx.delete(savedInputs).where(eq(savedInputs.id, id));
    return taken;
  });
  // A store error leaves them queued for the retention job.
  await removeQueuedFiles(deps, keys).catch(() => 0);
}

/**
 * Who starts saved answers: their owner in person (web, API, MCP) or their schedule (the owner is read). A
 * schedule's start runs in the transaction the schedules job holds for its claimed batch, with the start's
 * settings and the saved answers' rows (`row`, undefined when they are gone) the job read once for the batch.
 */
type Starter =
  { user: TSessionUser } | { schedule: true; settings: StartSettings; row: ScheduledRow | undefined };

/** A kept file as the start's read brings it (JSON: its time as text). */
type SavedFileJson = Omit<SavedFile, 'createdAt'> & { createdAt: string };

/** The saved answers' kept files, in the start's one read rather than a read of their own. */
function keptFilesColumn() {
  const file = savedInputFiles;
  return sql<SavedFileJson[]>`coalesce((select json_agg(json_build_object('id', ${file.id},
      'savedInputId', ${file.savedInputId}, 'questionId', ${file.questionId}, 'storageKey', ${file.storageKey},
      'filename', ${file.filename}, 'contentType', ${file.contentType}, 'size', ${file.size},
      'createdAt', ${file.createdAt}))
    from ${file} where ${file.savedInputId} = ${savedInputs.id}), '[]'::json)`;
}

/** Saved answers with their kept files, their workflow, where its runs are delivered, and their owner. */
function forRunSelect(db: DbOrTx) {
  return db
    .select({
      saved: savedInputs,
      ...WORKFLOW_FIELDS,
      ...WEBHOOK_TARGET_FIELDS,
      ...AVAILABILITY,
      profile: userProfiles,
      keptFiles: keptFilesColumn(),
    })
    .from(savedInputs)
    .innerJoin(userWorkflows, eq(userWorkflows.id, savedInputs.workflowId))
    .innerJoin(userProfiles, eq(userProfiles.id, savedInputs.userId));
}

/**
 * A claimed batch of due schedules' read of their saved answers (anyone's: the owner is the schedule's), the
 * ids as a JSON array; prepared per connection.
 */
const scheduledForRun = preparedPerHandle((db) =>
  forRunSelect(db)
    .where(
      sql`${savedInputs.id} in (select jsonb_array_elements_text(${sql.placeholder('ids')}::jsonb)::uuid)`,
    )
    .prepare('saved_inputs_for_schedules'),
);
type ScheduledRow = Awaited<ReturnType<ReturnType<typeof scheduledForRun>['execute']>>[number];

/**
 * Saved answers and everything a start of them reads, in `db` (the schedule job's transaction, or the pool):
 * their workflow (with where its runs are delivered) and their owner. Someone else's are 404; so is a
 * workflow that is inactive or private to a non-admin (as startRun says of it); a chat's are refused
 * (chatCannotBeSaved); answers that no longer fit the questions are marked for review (if they were not yet)
 * and refused with what to fix (409), never sent. Answers the checked answers, as a run sends them.
 */
async function loadForRun(deps: AppDeps, db: DbOrTx, id: string, by: Starter) {
  const [row] =
    'user' in by
      ? await forRunSelect(db).where(and(eq(savedInputs.id, id), eq(savedInputs.userId, by.user.id)))
      : [by.row];
  if (!row) throw notFound('savedInput');
  const user = 'user' in by ? by.user : toSessionUser(row.profile);
  if (row.profile.deletedAt) throw new AppError('ACCOUNT_SUSPENDED', 'default');
  if (!row.isActive || (!row.isPublic && !user.isAdmin)) throw notFound('workflow');
  refuseUnsaveable(row);
  const kept = row.keptFiles.map((k) => ({ ...k, createdAt: new Date(k.createdAt) }));
  const { files } = await currentReview(db, row.saved, row, kept);
  // Named in the reader's language (the questions' texts too); the check is the same in any language.
  const problems = reviewProblems(row.surveyQuestions, row.saved.answers, user.language, files);
  if (problems.length > 0) throw new SavedInputNeedsReview(problems, user.language);
  const fileAnswer = savedFileAnswers(files);
  const answers = surveyAnswersOrThrow(
    row.surveyQuestions,
    row.saved.answers,
    row.saved.language,
    fileAnswer,
  );
  return { row, user, answers, files, fileAnswer };
}

const AVAILABILITY = { isActive: userWorkflows.isActive, isPublic: userWorkflows.isPublic };

/** Written at every start of saved answers, so prepared once per connection. */
const lastRunUpdate = preparedPerHandle((db) =>
  db
    .update(savedInputs)
    .set({ lastRunId: sql`${sql.placeholder('runId')}::uuid` })
    .where(eq(savedInputs.id, sql.placeholder('id')))
    .prepare('saved_input_last_run'),
);

async function noteLastRun(db: DbOrTx, id: string, runId: string) {
  await lastRunUpdate(db).execute({ id, runId });
}

/** A start of saved answers: the run, and its first delivery to send once `db`'s transaction committed. */
interface SavedStart {
  executionId: string;
  deliver: (() => Promise<unknown>) | undefined;
  /** A schedule's start, in the job's transaction: removes the run's file copies if that is undone. */
  discard?: () => Promise<void>;
}

/**
 * The one start of saved answers without an API key, in `db` (a transaction the caller holds, or the pool):
 * the answers loaded and checked (loadForRun), then the start statement every run uses (startRun: charged,
 * the run written `running` with its answers and its first delivery claimed), and the saved answers' last
 * run noted. The web's "run now" (origin `web`) and a due schedule (origin `schedule`, in the transaction
 * that records the due time) start here; POST /api/v1/runs { savedInputId } and MCP load the same way and
 * start through the API's start (startSavedInputApiRun). 402 without the credits, nothing charged.
 */
async function startSavedInput(
  deps: AppDeps,
  db: DbOrTx,
  id: string,
  by: Starter,
  origin: 'web' | 'schedule',
): Promise<SavedStart> {
  const { row, user, answers, files } = await loadForRun(deps, db, id, by);
  // The kept files' bytes are copied before the start, so the run's own copies exist when it commits.
  const copies = await copyFilesForRun(deps, answers, files);
  const start = async (tx: DbOrTx) => {
    const run = await startRun(
      { ...deps, db: tx },
      user,
      { workflowId: row.saved.workflowId, language: row.saved.language },
      { answers: copies.answers, origin, ...('settings' in by ? { settings: by.settings } : {}) },
    );
    await copies.attach(tx, run.executionId);
    // A schedule's job notes the run as the last one with its due time's outcome, in that same statement.
    if (!('schedule' in by)) await noteLastRun(tx, row.saved.id, run.executionId);
    return run;
  };
  let started: StartedRun;
  try {
    // A schedule's start is already in the job's transaction, which a fault here undoes (the start statement
    // writes nothing when it refuses); a savepoint of its own would only cost two round trips.
    started = 'schedule' in by ? await start(db) : await db.transaction(start);
  } catch (err) {
    await copies.discard();
    throw err;
  }
  const delivery = started.delivery;
  const target = {
    webhookUrl: row.webhookUrl,
    secret: row.secret,
    previousSecret: row.previousSecret,
    previousExpiresAt: row.previousExpiresAt,
  };
  return {
    executionId: started.executionId,
    deliver: delivery ? () => deliverClaimed(deps, delivery, target) : undefined,
    ...('schedule' in by ? { discard: copies.discard } : {}),
  };
}

interface SavedRunContext {
  /** Takes the run's first delivery to finish after the answer (false: the caller awaits it). */
  afterAnswer?: (delivery: Promise<unknown>) => boolean;
}

/** The web's "run now": the person's saved answers started (startSavedInput), then delivered. */
export async function runSavedInput(
  deps: AppDeps,
  user: TSessionUser,
  id: string,
  context: SavedRunContext = {},
): Promise<{ executionId: string }> {
  const started = await startSavedInput(deps, deps.db, id, { user }, 'web');
  if (started.deliver) {
    const delivery = started.deliver();
    if (!context.afterAnswer?.(delivery)) await delivery;
  }
  return { executionId: started.executionId };
}

/** Why a due time started no run (the schedules module's skip reasons; `missed` is the job's own). */
type SkipReason = 'insufficient_credits' | 'workflow_unavailable' | 'needs_review' | 'account_suspended';

/** A refusal of the start as the reason a schedule skips its due time; anything else is a fault. */
function skipReasonOf(err: AppError): SkipReason | null {
  switch (err.code) {
    case 'INSUFFICIENT_CREDITS':
      return 'insufficient_credits';
    case 'ACCOUNT_SUSPENDED':
    case 'EMAIL_NOT_VERIFIED':
      return 'account_suspended';
    // A paused workflow (decision 146) is unavailable for now: the schedule skips and its owner is told.
    case 'NOT_FOUND':
    case 'WORKFLOW_PAUSED':
      return 'workflow_unavailable';
    // A workflow turned into a chat takes no saved answers; any other refusal of them is a review's. (The
    // key's type is the union's common part, "default", so it is compared as the string it is.)
    case 'VALIDATION_ERROR':
      return (err.textKey as string) === 'chatCannotBeSaved' ? 'workflow_unavailable' : 'needs_review';
    case 'CONFLICT':
      return 'needs_review';
    default:
      return null;
  }
}

/**
 * A due schedule's run (the schedules job's DueRunStarter, composed in src/server/jobs): startSavedInput in
 * the transaction that holds the schedule, origin `schedule`, so it is charged like any run and written
 * exactly when its due time is recorded. `tx` is the savepoint the job holds for the due time: a failure
 * rolls it back, run and charge with it. What stops it is a skip reason. The first delivery is sent after
 * the commit; if the process dies first, the retry job takes it over once its lease is past.
 */
export async function startScheduledRun(
  deps: AppDeps,
  tx: Tx,
  savedInputId: string,
  batch: { savedInputIds: readonly string[]; once<T>(key: string, read: () => Promise<T>): Promise<T> },
): Promise<
  | {
      kind: 'started';
      runId: string;
      deliver: (() => Promise<unknown>) | undefined;
      discard?: () => Promise<void>;
    }
  | { kind: 'skipped'; reason: SkipReason }
> {
  try {
    // Read in the batch's transaction by its first due time, and shared by the batch's others.
    const settings = await batch.once('start-settings', () => getSettings(tx, START_SETTINGS));
    const rows = await batch.once('saved-inputs', async () => {
      const read = await scheduledForRun(tx).execute({ ids: JSON.stringify(batch.savedInputIds) });
      return new Map(read.map((r) => [r.saved.id, r]));
    });
    const by = { schedule: true, settings, row: rows.get(savedInputId) } as const;
    const started = await startSavedInput(deps, tx, savedInputId, by, 'schedule');
    return {
      kind: 'started',
      runId: started.executionId,
      deliver: started.deliver,
      ...(started.discard ? { discard: started.discard } : {}),
    };
  } catch (err) {
    const reason = err instanceof AppError ? skipReasonOf(err) : null;
    if (!reason) throw err;
    return { kind: 'skipped', reason };
  }
}

/**
 * Runs saved answers through an API key (POST /api/v1/runs { savedInputId }, MCP `run_saved_input`): as if
 * the caller had sent the workflow and the answers to POST /api/v1/runs, so the key's monthly limit, its
 * Idempotency-Key and the answers' check are the same ones.
 */
export async function startSavedInputApiRun(
  deps: AppDeps,
  principal: ApiPrincipal,
  id: string,
  options: { wait?: number | undefined; lang?: TLanguage | undefined },
  idempotencyKey: string | undefined,
  context: ApiRunContext,
): Promise<ApiRunOutcome> {
  const { row, files, fileAnswer } = await loadForRun(deps, deps.db, id, { user: principal.user });
  const outcome = await startApiRun(
    deps,
    { principal },
    {
      workflowId: row.saved.workflowId,
      answers: row.saved.answers,
      lang: options.lang ?? row.saved.language,
      ...(options.wait !== undefined ? { wait: options.wait } : {}),
    },
    idempotencyKey,
    context,
    { fileAnswer, kept: files },
  );
  if (!outcome) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
  if (!outcome.replayed) await noteLastRun(deps.db, row.saved.id, outcome.run.id);
  return outcome;
}
