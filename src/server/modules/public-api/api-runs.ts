import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { pickLanguage, type TLanguage } from '#shared/contract/common.js';
import { splitCompletionMarker } from '#shared/contract/chat.js';
import type { TStoredFileAnswer } from '#shared/contract/executions.js';
import type { FileAnswerOf } from '#shared/contract/survey-schema.js';
import type {
  TApiChatMessageCreate,
  TApiChatReply,
  TApiRun,
  TApiRunStart,
  TApiRunStarted,
} from '#shared/contract/public-api.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import {
  apiKeys,
  idempotencyKeys,
  userProfiles,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { isUniqueViolation } from '#server/db/sql-helpers.js';
import { AppError, badRequest, notFound } from '#server/lib/errors.js';
import { sha256Hex } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import { type ApiPrincipal, KEY_LOOKUP, keyOwner, principalOf } from '../apikeys/service.js';
import { acceptRunMessage, type ChatReply, type PendingChatReply } from '../chat/service.js';
import {
  completeRun,
  copyFilesForRun,
  deliverClaimed,
  getOwnRun,
  type KeptFile,
  refuseTooManyUnspokenChats,
  START_SETTINGS,
  type StartedRun,
  startRun,
  surveyAnswersOrThrow,
  toExecution,
  waitForEnd,
  WEBHOOK_TARGET_FIELDS,
} from '../executions/service.js';
import { settingsColumn } from '../settings/service.js';
import { API_WORKFLOW_FIELDS, publicActive, toApiRun } from './service.js';
import { checkWebhookUrl, ensureAccountWebhookSecret } from '../webhooks/service.js';

/** Idempotency keys of API runs live beside the purchases' ones; the prefix keeps the two apart. */
const keyFor = (idempotencyKey: string) => `v1-run:${idempotencyKey}`;

/** What a key is bound to: the workflow and the answers, whatever their order. */
function requestHash(workflowId: string, answers: Record<string, unknown>): string {
  const sorted = Object.keys(answers)
    .sort()
    .map((k) => [k, answers[k]]);
  return createHash('sha256')
    .update(JSON.stringify([workflowId, sorted]))
    .digest('hex');
}

/** The stored answer of an Idempotency-Key: its run, or 409 when the key was used for another request. */
function storedRun(stored: { requestHash: string; response: unknown }, hash: string): string | null {
  if (stored.requestHash !== hash) throw new AppError('CONFLICT', 'idempotencyKeyReusedRun');
  const runId = (stored.response as { runId?: unknown }).runId;
  return typeof runId === 'string' ? runId : null;
}

async function storedRunId(
  deps: AppDeps,
  userId: string,
  idempotencyKey: string,
  hash: string,
): Promise<string | null> {
  const [row] = await deps.db
    .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, keyFor(idempotencyKey))));
  return row ? storedRun(row, hash) : null;
}

const startSettings = settingsColumn(START_SETTINGS);

/**
 * Everything a start reads, in one round trip: the key and its owner (the key's own lookup, KEY_LOOKUP), the
 * workflow if it is public and active (with where its runs are delivered), the Idempotency-Key's stored
 * answer, and the live settings the start needs. By the key's hash for POST /api/v1/runs, by its id for an
 * MCP call, whose request was authorised already. Prepared once per database: the API's busiest path.
 */
function startLookup(db: Db, by: 'hash' | 'id') {
  return db
    .select({
      ...KEY_LOOKUP,
      workflow: { ...API_WORKFLOW_FIELDS, ...WEBHOOK_TARGET_FIELDS },
      stored: { requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response },
      settings: startSettings.column,
    })
    .from(apiKeys)
    .innerJoin(userProfiles, keyOwner)
    .leftJoin(userWorkflows, and(eq(userWorkflows.id, sql.placeholder('workflowId')), publicActive))
    .leftJoin(
      idempotencyKeys,
      and(
        eq(idempotencyKeys.userId, apiKeys.userId),
        eq(idempotencyKeys.key, sql.placeholder('idempotencyKey')),
      ),
    )
    .where(
      by === 'hash' ? eq(apiKeys.keyHash, sql.placeholder('key')) : eq(apiKeys.id, sql.placeholder('key')),
    )
    .prepare(`api_start_lookup_by_${by}`);
}
const startLookups = { hash: new WeakMap<Db, StartLookup>(), id: new WeakMap<Db, StartLookup>() };
type StartLookup = ReturnType<typeof startLookup>;

async function lookUpStart(deps: AppDeps, caller: ApiCaller, workflowId: string, idempotencyKey?: string) {
  const by = 'principal' in caller ? 'id' : 'hash';
  let lookup = startLookups[by].get(deps.db);
  if (!lookup) startLookups[by].set(deps.db, (lookup = startLookup(deps.db, by)));
  const [row] = await lookup.execute({
    key: 'principal' in caller ? caller.principal.keyId : sha256Hex(caller.presentedKey),
    workflowId,
    idempotencyKey: idempotencyKey === undefined ? null : keyFor(idempotencyKey),
  });
  return row;
}

/**
 * Who starts: the key as presented (POST /api/v1/runs looks it up with everything else the start reads), or
 * the principal of a request authorised already (an MCP tool call).
 */
export type ApiCaller = { presentedKey: string } | { principal: ApiPrincipal };

export interface ApiRunContext {
  /** Ends a waiting start (the server is closing). */
  stop: AbortSignal;
  /**
   * Takes a run's first delivery to finish after the answer, or refuses it (false: too many in flight in this
   * process, so the answer waits for this one). Without it the answer always waits for the delivery.
   */
  afterAnswer?: (delivery: Promise<unknown>) => boolean;
  /** Where the start comes from: the public API (the default) or the MCP server. */
  origin?: 'api' | 'mcp';
}

export interface ApiRunOutcome {
  /** A chat's run comes with its welcome message. */
  run: TApiRunStarted;
  /** True when an Idempotency-Key replay answered the first run; nothing was charged. */
  replayed: boolean;
}

/**
 * POST /api/v1/runs (and an MCP workflow tool): one read (the key, the workflow, the Idempotency-Key's
 * stored answer and the settings), the answers checked before anything is charged, then one statement
 * (startRun) that locks the key's row, keeps to its monthly limit, charges, writes the run with its answers
 * and its first delivery claimed, records the key's spending and claims the Idempotency-Key. The delivery
 * then goes to the workflow after the answer (the run answers `running`), unless `wait` asks to hold the
 * answer until the result: then it is awaited, and the result for up to `wait` seconds. A run whose
 * delivery never happened (the process died) is taken over by the retry job once its lease is past.
 * Answers null when the key does not authenticate, before anything else is said.
 */
export async function startApiRun(
  deps: AppDeps,
  caller: ApiCaller,
  input: TApiRunStart,
  idempotencyKey: string | undefined,
  context: ApiRunContext,
  /**
   * Saved answers' kept files (decision 159): how their `{ fileId }` answers read, and where their bytes
   * are, copied to the run. Without them a file question cannot be answered through the API.
   */
  saved?: { fileAnswer: FileAnswerOf<TStoredFileAnswer>; kept: KeptFile[] },
): Promise<ApiRunOutcome | null> {
  const row = await lookUpStart(deps, caller, input.workflowId, idempotencyKey);
  const principal = await principalOf(deps, row);
  if (!row || !principal) return null;
  const { user } = principal;
  const lng: TLanguage = input.lang ?? user.language;
  const workflow = row.workflow;
  if (!workflow) throw notFound('workflow');
  // Files are uploaded to a run the web app holds; the API has no upload yet, so it refuses such a run before
  // anything is charged rather than send the workflow a survey with holes.
  const fileQuestions = workflow.surveyQuestions.filter((q) => q.type === 'file');
  if (fileQuestions.length > 0 && !saved) {
    const fields = fileQuestions.map((q) => ({
      field: `answers.${q.id}`,
      message: 'File questions are answered in the web app only',
    }));
    throw badRequest(
      { key: 'fileQuestionsNotSupported', params: { fields: fields.map((f) => f.field).join(', ') } },
      { fields },
    );
  }
  const answers = input.answers ?? {};
  // A chat starts like the web's chat screen: checked as any start (balance, the key's limit) but charged at
  // its first message through /messages (decision 164); a survey is charged now, with its answers.
  const chat = workflow.interactionType === 'chatbot';
  if (chat && Object.keys(answers).length > 0) {
    throw badRequest('chatTakesNoAnswers', { fields: [{ field: 'answers', message: 'not for a chat' }] });
  }
  // Checked before anything is charged, as the web complete call checks its own (survey-answers.ts).
  if (input.webhookUrl !== undefined) await checkWebhookUrl(deps, input.webhookUrl);
  const responses = chat
    ? []
    : surveyAnswersOrThrow(workflow.surveyQuestions, answers, lng, saved?.fileAnswer);
  const opened = (run: TApiRun): TApiRunStarted =>
    chat ? { ...run, welcomeMessage: pickLanguage(workflow.welcomeMessage, lng) || null } : run;
  const replay = async (runId: string | null): Promise<ApiRunOutcome | null> =>
    runId
      ? {
          run: opened(toApiRun(await getOwnRun(deps.db, user.id, runId), deps.config.publicUrl)),
          replayed: true,
        }
      : null;
  const hash = requestHash(input.workflowId, answers);
  if (idempotencyKey && row.stored) {
    const earlier = await replay(storedRun(row.stored, hash));
    if (earlier) return earlier;
  }

  // Free until its first message, so the account's unspoken conversations are bounded (decision 164).
  if (chat) await refuseTooManyUnspokenChats(deps, user.id);
  // Kept files are copied first and written with the run in one transaction; other starts stay one statement.
  const copies = saved && !chat ? await copyFilesForRun(deps, responses, saved.kept) : null;
  const start = (db: DbOrTx) =>
    startRun(
      { ...deps, db },
      user,
      { workflowId: input.workflowId, language: lng },
      {
        settings: startSettings.values(row.settings),
        apiKeyId: principal.keyId,
        origin: context.origin ?? 'api',
        unpaid: chat,
        ...(idempotencyKey ? { idempotency: { key: keyFor(idempotencyKey), requestHash: hash } } : {}),
        ...(chat ? {} : { answers: copies?.answers ?? responses }),
      },
    );
  let started: StartedRun;
  try {
    started = copies
      ? await deps.db.transaction(async (tx) => {
          const run = await start(tx);
          await copies.attach(tx, run.executionId);
          return run;
        })
      : await start(deps.db);
  } catch (err) {
    await copies?.discard();
    // A twin request with the same Idempotency-Key claimed it first; its start stands, this one undid itself.
    if (!idempotencyKey || !isUniqueViolation(err)) throw err;
    const twin = await replay(await storedRunId(deps, user.id, idempotencyKey, hash));
    if (!twin) throw new AppError('CONFLICT', 'idempotencyKeyInProgress');
    return twin;
  }
  // Written before the run's answers leave for the workflow, so no ending can come before it.
  const runSecret =
    input.webhookUrl === undefined ? null : await notifyRunEnd(deps, started, input.webhookUrl);
  const withSecret = (run: TApiRunStarted): TApiRunStarted =>
    runSecret?.created ? { ...run, webhookSecret: runSecret.secret } : run;
  const asStarted = () =>
    withSecret(
      toApiRun(toExecution({ run: started.run, workflowName: workflow.name }), deps.config.publicUrl),
    );
  if (!started.delivery) return { run: opened(asStarted()), replayed: false };
  const { webhookUrl, secret, previousSecret, previousExpiresAt } = workflow;
  const delivery = deliverClaimed(deps, started.delivery, {
    webhookUrl,
    secret,
    previousSecret,
    previousExpiresAt,
  });
  const waitMs = (input.wait ?? 0) * 1000;
  if (waitMs === 0 && context.afterAnswer?.(delivery)) return { run: asStarted(), replayed: false };
  if ((await delivery) === 'delivered') await waitForEnd(deps, started.executionId, waitMs, context.stop);
  return {
    run: withSecret(toApiRun(await getOwnRun(deps.db, user.id, started.executionId), deps.config.publicUrl)),
    replayed: false,
  };
}

/** Gives a started run its own address for its ending, with the account's signing secret (made on first use). */
async function notifyRunEnd(deps: AppDeps, started: StartedRun, url: string) {
  await deps.db
    .update(workflowExecutions)
    .set({ notifyUrl: url })
    .where(eq(workflowExecutions.id, started.executionId));
  started.run.notifyUrl = url;
  return ensureAccountWebhookSecret(deps.db, started.run.userId, deps.now());
}

export async function getApiRun(deps: AppDeps, userId: string, runId: string): Promise<TApiRun> {
  return toApiRun(await getOwnRun(deps.db, userId, runId), deps.config.publicUrl);
}

/**
 * POST /api/v1/runs/{id}/messages: the message is checked and counted as the web chat's are (the same
 * service), then answered. `reply` writes the answer, whole or streamed; `finish` turns it into the API's
 * reply and, when it ends the conversation, submits the run as the web app does when its chat ends: the
 * workflow receives the transcript the server kept. The first message charges the run (decision 164), under
 * the monthly limit of the key it came with. MCP's send_message is this call.
 */
export async function acceptApiChatMessage(
  deps: AppDeps,
  principal: Pick<ApiPrincipal, 'user' | 'keyId'>,
  runId: string,
  input: TApiChatMessageCreate,
  stop: AbortSignal,
): Promise<{ pending: PendingChatReply; finish(reply: ChatReply): Promise<TApiChatReply> }> {
  const userId = principal.user.id;
  const pending = await acceptRunMessage(deps, userId, runId, input.content, input.lang, principal.keyId);
  const finish = async (reply: ChatReply): Promise<TApiChatReply> => {
    const { done, text } = splitCompletionMarker(reply.content);
    const run = done
      ? await completeRun(deps, userId, runId, { responses: [] }, stop, (input.wait ?? 0) * 1000)
      : await getOwnRun(deps.db, userId, runId);
    return { content: text, done, remaining: reply.remaining, run: toApiRun(run, deps.config.publicUrl) };
  };
  return { pending, finish };
}
