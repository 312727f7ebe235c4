import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import {
  type TSentAnswer,
  type TStoredFileAnswer,
  type TUploadedInputFile,
  ZFileAnswerRef,
} from '#shared/contract/executions.js';
import type { FileAnswerOf } from '#shared/contract/survey-schema.js';
import { acceptedExtensions, maxFileMb, type TSurveyQuestion } from '#shared/contract/workflows.js';
import type { DbOrTx } from '#server/db/client.js';
import { runInputFiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { isUniqueViolation } from '#server/db/sql-helpers.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/lib/errors.js';
import { fileLinkSecret } from '#server/lib/file-link-secret.js';
import { isStorageKey, resultStorageFor } from '#server/providers/storage/index.js';
import type { AppDeps } from '#server/types.js';
import {
  allowedExtension,
  checkResultFile,
  displayFilename,
  queueFileDeletions,
  removeQueuedFiles,
} from '../results/service.js';
import { getSetting } from '../settings/service.js';
import { keptFileAnswer, stillIn } from './queries.js';

/*
 * Files people upload as answers to a survey's file questions. They are uploaded to a pending run (one per
 * question; a replacement is a DELETE, then a new upload), checked by the rules of result files (extension,
 * bytes, xlsx inspection), kept in the result file storage, and reach the workflow as signed links it can
 * fetch without a session while the run works.
 */

const MIB = 1024 * 1024;
/** A link never lives longer than this, whatever the run's own expiry. */
const FILE_LINK_MAX_MS = 24 * 60 * 60 * 1000;

export interface UploadedInput {
  filename: string;
  bytes: Buffer;
}

/** The largest upload any question may take now: the route's streaming limit. */
export async function maxInputFileBytes(deps: Pick<AppDeps, 'db'>): Promise<number> {
  return (await getSetting(deps.db, 'max_input_file_mb')) * MIB;
}

/** The caller's run, still waiting for its answers, with its workflow's questions; 404 or 409 otherwise. */
async function pendingRunOf(tx: DbOrTx, userId: string, runId: string, now: Date, lock: boolean) {
  const query = tx
    .select({
      status: workflowExecutions.status,
      expiresAt: workflowExecutions.expiresAt,
      language: workflowExecutions.language,
      questions: userWorkflows.surveyQuestions,
    })
    .from(workflowExecutions)
    .innerJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)));
  const [run] = lock ? await query.for('update', { of: workflowExecutions }) : await query;
  if (!run) throw notFound('execution');
  if (!stillIn(run, 'pending', now)) {
    throw conflict('runCompletedOrExpired');
  }
  return run;
}

/** Before an upload's body is read: the run is the caller's and still waits for its answers. */
export async function assertPendingRun(deps: AppDeps, userId: string, runId: string): Promise<void> {
  await pendingRunOf(deps.db, userId, runId, deps.now(), false);
}

export function fileQuestion(questions: TSurveyQuestion[] | null, questionId: string): TSurveyQuestion {
  const question = (questions ?? []).find((q) => q.id === questionId && q.type === 'file');
  if (!question) throw badRequest({ key: 'notAFileQuestion', params: { questionId } });
  return question;
}

/**
 * Checks a file for one question before anything is kept: the question exists and takes files, the
 * extension is one it accepts, the size is within its limit, the bytes are what the extension says.
 */
async function checkInputFile(
  deps: AppDeps,
  userId: string,
  runId: string,
  questionId: string,
  file: UploadedInput,
): Promise<{ question: TSurveyQuestion; extension: string; contentType: string; filename: string }> {
  const run = await pendingRunOf(deps.db, userId, runId, deps.now(), false);
  const question = fileQuestion(run.questions, questionId);
  return { question, ...(await checkFileFor(deps, question, file)) };
}

/**
 * The checks of a file answer to one file question, for a run's upload and a saved answers' alike: the
 * extension is one the question accepts, the size is within its limit (its own, or `max_input_file_mb`), the
 * bytes are what the extension says. Answers the file's kept facts.
 */
export async function checkFileFor(
  deps: Pick<AppDeps, 'db'>,
  question: TSurveyQuestion,
  file: UploadedInput,
): Promise<{ extension: string; contentType: string; filename: string }> {
  const accepted = acceptedExtensions(question);
  const extension = allowedExtension(file.filename);
  if (!extension || !accepted.includes(extension)) {
    throw badRequest({ key: 'inputFileTypeNotAllowed', params: { extensions: accepted.join(', ') } });
  }
  const mb = maxFileMb(question, await getSetting(deps.db, 'max_input_file_mb'));
  if (file.bytes.length > mb * MIB) {
    throw new AppError('PAYLOAD_TOO_LARGE', { key: 'inputFileTooLarge', params: { mb } });
  }
  const checked = await checkResultFile(file.filename, file.bytes);
  return {
    extension: checked.extension,
    contentType: checked.contentType,
    filename: displayFilename(file.filename, checked.extension),
  };
}

/** POST /api/executions/{id}/files: keeps a checked file as the answer to one file question of a pending run. */
export async function uploadInputFile(
  deps: AppDeps,
  userId: string,
  runId: string,
  questionId: string,
  file: UploadedInput,
): Promise<TUploadedInputFile> {
  const checked = await checkInputFile(deps, userId, runId, questionId, file);
  // Refused before the bytes are written when the question already has its file; the unique index settles
  // two uploads racing past this check.
  const [existing] = await deps.db
    .select({ id: runInputFiles.id })
    .from(runInputFiles)
    .where(and(eq(runInputFiles.executionId, runId), eq(runInputFiles.questionId, questionId)));
  if (existing) throw conflict('fileAlreadyUploaded');
  const storage = resultStorageFor(deps.config);
  const key = await storage.save(file.bytes, checked.extension);
  try {
    const row = await deps.db.transaction(async (tx) => {
      // Locked, so the run cannot be completed (and its answers sent) between this check and the insert.
      await pendingRunOf(tx, userId, runId, deps.now(), true);
      const [inserted] = await tx
        .insert(runInputFiles)
        .values({
          executionId: runId,
          questionId,
          storageKey: key,
          filename: checked.filename,
          contentType: checked.contentType,
          size: file.bytes.length,
        })
        .returning({ id: runInputFiles.id });
      return inserted;
    });
    if (!row) throw new Error('the file row was not inserted');
    return {
      fileId: row.id,
      filename: checked.filename,
      size: file.bytes.length,
      contentType: checked.contentType,
    };
  } catch (err) {
    await storage.remove(key);
    if (isUniqueViolation(err)) throw conflict('fileAlreadyUploaded');
    throw err;
  }
}

/** DELETE /api/executions/{id}/files/{fileId}: removes an uploaded answer so another can be uploaded. */
export async function deleteInputFile(
  deps: AppDeps,
  userId: string,
  runId: string,
  fileId: string,
): Promise<void> {
  const key = await deps.db.transaction(async (tx) => {
    await pendingRunOf(tx, userId, runId, deps.now(), true);
    const [removed] = await tx
      .delete(runInputFiles)
      .where(and(eq(runInputFiles.id, fileId), eq(runInputFiles.executionId, runId)))
      .returning({ key: runInputFiles.storageKey });
    if (!removed) throw notFound('inputFile');
    await queueFileDeletions(tx, [removed.key]);
    return removed.key;
  });
  // A store error leaves it queued for the retention job.
  await removeQueuedFiles(deps, [key]).catch(() => 0);
}

/**
 * A survey's file answers as they will be kept and sent: `{ fileId }` of a file uploaded to this run for that
 * very question becomes the file's facts; anything else names no upload (null, which the check refuses).
 */
export async function uploadedFileAnswers(
  tx: DbOrTx,
  runId: string,
): Promise<FileAnswerOf<TStoredFileAnswer>> {
  const files = await tx.select().from(runInputFiles).where(eq(runInputFiles.executionId, runId));
  return (question, value) => {
    const fileId = ZFileAnswerRef.safeParse(value).data?.fileId;
    const file = files.find((f) => f.id === fileId && f.questionId === question.id);
    return file
      ? { fileId: file.id, filename: file.filename, contentType: file.contentType, size: file.size }
      : null;
  };
}

function signature(secret: Buffer, runId: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${runId}.${fileId}.${expires}`).digest('base64url');
}

/** What the workflow receives for a file answer: its facts and a link to its bytes. */
interface WebhookFileAnswer {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}

/**
 * The responses as the webhook sends them: every file answer becomes `{ filename, content_type, size, url }`,
 * the URL signed until the run's expiry (at most 24 h from now). A run past its expiry or ended makes the
 * link refuse anyway, so a longer-looking expiry gives nothing away.
 */
export async function webhookResponses(
  deps: Pick<AppDeps, 'config' | 'now'>,
  runId: string,
  inputData: unknown,
  runExpiresAt: Date | null,
): Promise<unknown> {
  if (
    !Array.isArray(inputData) ||
    !inputData.some((r) => keptFileAnswer((r as { answer?: unknown })?.answer))
  ) {
    return inputData ?? [];
  }
  const secret = await fileLinkSecret(deps.config);
  const cap = deps.now().getTime() + FILE_LINK_MAX_MS;
  const until = Math.min(runExpiresAt?.getTime() ?? cap, cap);
  const expires = Math.floor(until / 1000);
  return inputData.map((item: { question?: unknown; answer?: unknown }) => {
    const file = keptFileAnswer(item?.answer);
    if (!file) return item;
    const { fileId, filename, contentType, size } = file;
    const query = `expires=${expires}&signature=${signature(secret, runId, fileId, expires)}`;
    // The webhook keeps the spec's spelling (`content_type`), as the rest of the webhook contract does.
    const answer: WebhookFileAnswer = {
      filename,
      content_type: contentType,
      size,
      url: `${deps.config.publicUrl}/api/executions/${runId}/files/${fileId}?${query}`,
    };
    return { question: item.question, answer };
  });
}

/**
 * GET /api/executions/{id}/files/{fileId}?expires=&signature=: the bytes, for whoever holds a valid link
 * while the run works, streamed from the store (a bucket or DATA_DIR) rather than held whole in memory. A
 * wrong, late or ended link is the same 403, so it tells nothing about the file.
 */
export async function openSignedInputFile(
  deps: AppDeps,
  runId: string,
  fileId: string,
  expires: string,
  presented: string,
): Promise<{ body: Readable; size: number; filename: string; contentType: string }> {
  const refused = () => forbidden('fileLinkInvalid');
  const now = deps.now();
  const expiresAt = Number(expires);
  const expected = Buffer.from(signature(await fileLinkSecret(deps.config), runId, fileId, expiresAt));
  const given = Buffer.from(presented);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  if (expiresAt * 1000 <= now.getTime()) throw refused();
  const [file] = await deps.db
    .select({
      key: runInputFiles.storageKey,
      filename: runInputFiles.filename,
      contentType: runInputFiles.contentType,
      size: runInputFiles.size,
      status: workflowExecutions.status,
      expiresAt: workflowExecutions.expiresAt,
    })
    .from(runInputFiles)
    .innerJoin(workflowExecutions, eq(workflowExecutions.id, runInputFiles.executionId))
    .where(and(eq(runInputFiles.id, fileId), eq(runInputFiles.executionId, runId)));
  if (!file || !stillIn(file, 'running', now)) throw refused();
  if (!isStorageKey(file.key)) throw refused();
  const body = await resultStorageFor(deps.config).stream(file.key);
  if (!body) throw refused();
  return { body, size: file.size, filename: file.filename, contentType: file.contentType };
}

/** A kept file another run's answers name: where its bytes are. */
export interface KeptFile {
  id: string;
  questionId: string;
  storageKey: string;
}

/** The copies of kept files for a run about to start (copyFilesForRun). */
export interface RunFileCopies {
  /** The answers to send, every file answer naming the run's own copy. */
  answers: TSentAnswer[];
  /** Writes the copies' rows for the started run, in the transaction that started it. */
  attach(tx: DbOrTx, runId: string): Promise<void>;
  /** Removes the copied bytes when the start did not happen. */
  discard(): Promise<void>;
}

/**
 * Copies the files that answers name (a saved answers' kept files, decision 159) to a run about to start: new
 * bytes in the store under new keys, so the run's files and the kept ones are removed independently (the
 * run's with the run's other contents, the kept ones with the saved answers). Each file answer then names the
 * run's own copy, which the workflow fetches through the signed link as any uploaded answer. A file whose
 * bytes are gone from the store refuses the start (409), nothing charged.
 */
export async function copyFilesForRun(
  deps: Pick<AppDeps, 'config'>,
  answers: TSentAnswer[],
  kept: KeptFile[],
): Promise<RunFileCopies> {
  const storage = resultStorageFor(deps.config);
  const rows: Array<Omit<typeof runInputFiles.$inferInsert, 'executionId'>> = [];
  const discard = async () => {
    await Promise.all(rows.map((r) => storage.remove(r.storageKey).catch(() => undefined)));
  };
  const copied: TSentAnswer[] = [];
  try {
    for (const item of answers) {
      const file = keptFileAnswer(item.answer);
      const source = file ? kept.find((k) => k.id === file.fileId) : undefined;
      if (!file || !source) {
        copied.push(item);
        continue;
      }
      const bytes = isStorageKey(source.storageKey) ? await storage.read(source.storageKey) : null;
      if (!bytes) throw conflict('savedFileMissing');
      const key = await storage.save(bytes, allowedExtension(file.filename) ?? 'bin');
      const id = randomUUID();
      rows.push({
        id,
        questionId: source.questionId,
        storageKey: key,
        filename: file.filename,
        contentType: file.contentType,
        size: file.size,
      });
      copied.push({ question: item.question, answer: { ...file, fileId: id } });
    }
  } catch (err) {
    await discard();
    throw err;
  }
  return {
    answers: copied,
    async attach(tx, runId) {
      if (rows.length > 0)
        await tx.insert(runInputFiles).values(rows.map((r) => ({ ...r, executionId: runId })));
    },
    discard,
  };
}
