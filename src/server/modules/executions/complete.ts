import { and, eq } from 'drizzle-orm';
import type { TLanguage } from '#shared/contract/common.js';
import type { TCompleteRunRequest, TExecution, TSentAnswer } from '#shared/contract/executions.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import type { DbOrTx } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { conflict, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { readTranscript, transcriptResponses } from '../chat/service.js';
import { getSetting } from '../settings/service.js';
import { chargeRun } from '../credits/service.js';
import { attemptClaim, CLAIMED_RUN_FIELDS, deliverClaimed } from './dispatch.js';
import { uploadedFileAnswers } from './input-files.js';
import { getOwnRun, isOpen, runStatus, stillIn } from './queries.js';
import { runEventsOf } from './run-events.js';
import { answersByQuestion, surveyAnswersOrThrow } from './survey-answers.js';

/** How long the complete call waits for the workflow's result before answering `running`. */
const COMPLETE_WAIT_MS = 30_000;

/**
 * Sends the user's answers to the workflow: the run is charged (chargeRun) and becomes `running` in one
 * transaction (its expiry window restarts now), the first delivery is made, and, when the service accepted
 * it, the call waits for the result a while. A survey's answers are the client's `responses`; a chat's are made from the transcript the server kept, and
 * the client's are ignored.
 */
export async function completeRun(
  deps: AppDeps,
  userId: string,
  runId: string,
  input: TCompleteRunRequest,
  stop?: AbortSignal,
  /** How long to wait for the result; the public API lets its caller choose. */
  waitMs = COMPLETE_WAIT_MS,
): Promise<TExecution> {
  const timeoutMinutes = await getSetting(deps.db, 'webhook_timeout_minutes');
  const now = deps.now();
  const claim = attemptClaim(now);
  const claimed = await deps.db.transaction(async (tx) => {
    // Locked, so that a chat reply being added to the transcript lands before the responses are made from it
    // or not at all (appendChatTurns adds only to a pending run).
    const [run] = await tx
      .select({
        status: workflowExecutions.status,
        expiresAt: workflowExecutions.expiresAt,
        inputData: workflowExecutions.inputData,
        interactionType: userWorkflows.interactionType,
        questions: userWorkflows.surveyQuestions,
        version: userWorkflows.version,
        language: workflowExecutions.language,
      })
      .from(workflowExecutions)
      .innerJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
      .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)))
      .for('update', { of: workflowExecutions });
    if (!run) throw notFound('execution');
    if (!stillIn(run, 'pending', now)) {
      throw conflict('runCompletedOrExpired');
    }
    // Checked first, before anything is stored or charged. A chat's answers are the conversation the server
    // kept, not the client's account of it. A survey's pass the same check as the API's (survey-answers.ts),
    // its file answers becoming the uploaded files' facts; any problem refuses the whole call.
    const responses =
      run.interactionType === 'chatbot'
        ? transcriptResponses(readTranscript(run.inputData))
        : await checkedSurvey(tx, runId, run.questions ?? [], input, run.language);
    // The run is paid for with the answers it records (a chat was at its first message: nothing more then);
    // without the balance this throws 402 and the rolled-back transaction changes nothing.
    await chargeRun(tx, deps.metrics, runId);
    // The first delivery attempt is claimed in the same write (attemptClaim).
    const [row] = await tx
      .update(workflowExecutions)
      .set({
        status: 'running',
        inputData: responses,
        // The answers were checked against this version's questions: it is the version the run ran.
        workflowVersion: run.version,
        dispatchedAt: now,
        expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
        ...claim.set,
      })
      .where(eq(workflowExecutions.id, runId))
      .returning(CLAIMED_RUN_FIELDS);
    return { ...row!, token: claim.token };
  });

  const delivery = await deliverClaimed(deps, claimed);
  if (delivery === 'delivered') await waitForEnd(deps, runId, waitMs, stop);
  return getOwnRun(deps.db, userId, runId);
}

/** A survey's answers in the complete call, checked (surveyAnswersOrThrow) and made ready to keep and send. */
async function checkedSurvey(
  tx: DbOrTx,
  runId: string,
  questions: TSurveyQuestion[],
  input: TCompleteRunRequest,
  language: TLanguage,
): Promise<TSentAnswer[]> {
  const { answers, problems } = answersByQuestion(questions, input.responses, language);
  return surveyAnswersOrThrow(questions, answers, language, await uploadedFileAnswers(tx, runId), problems);
}

/**
 * Waits (real time) until the run ends or `ms` pass. Its status is read first and then only when the
 * database says the run changed, on whichever instance the result arrived (run-events.ts).
 */
export async function waitForEnd(
  deps: AppDeps,
  runId: string,
  ms: number,
  stop?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + ms;
  const watch = runEventsOf(deps.database).watch(runId);
  try {
    for (;;) {
      const status = await runStatus(deps.db, runId);
      if (!status || !isOpen(status)) return;
      let changed = false;
      while (!changed) {
        const remaining = deadline - Date.now();
        if (remaining <= 0 || stop?.aborted) return;
        changed = await watch.changed(remaining, ...(stop ? [stop] : []));
      }
    }
  } finally {
    watch.close();
  }
}
