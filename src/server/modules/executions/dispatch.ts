import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { TLanguage } from '#shared/contract/common.js';
import type { TRunFailureCode } from '#shared/contract/executions.js';
import { ZSyncWorkflowResult, type TSyncWorkflowResult } from '#shared/contract/results.js';
import type { DbOrTx } from '#server/db/client.js';
import { groupedWrites } from '#server/db/grouped-writes.js';
import { preparedPerHandle } from '#server/db/prepared.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { AppError, conflict } from '#server/lib/errors.js';
import type { WebhookOutcome } from '#server/lib/metrics.js';
import { newToken, sha256Hex } from '#server/lib/tokens.js';
import {
  postWebhook,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
  type DeliveryOutcome,
} from '#server/providers/webhooks/send.js';
import { selfWebhookPrefixes } from '#server/providers/webhooks/address-guard.js';
import { webhookHeaders } from '#server/providers/webhooks/signature.js';
import type { AppDeps } from '#server/types.js';
import { jsonNestingDepth } from '../results/service.js';
import { recordDelivery } from '../operations/service.js';
import { headerTokenFor } from '../workflows/service.js';
import { webhookResponses } from './input-files.js';
import { settleRun } from './settle.js';
import { applyResult } from './result.js';

/**
 * Delay before the next attempt after attempt n failed (network error, 3xx or 5xx): at once, after 5 s,
 * after 5 min; then the run fails (and is refunded). Retries never go past the run's expiry.
 */
const RETRY_DELAYS_MS = [0, 5_000, 5 * 60_000] as const;
/** While an attempt is in flight its row is leased; a crashed instance's attempt is retried after this. */
const LEASE_MS = WEBHOOK_ATTEMPT_TIMEOUT_MS + 20_000;
const JOB_BATCH = 10;

export type DeliveryResult =
  /** The service accepted the call (2xx); its result comes later by callback. */
  | 'delivered'
  /** The run ended (a synchronous result, a refusal, or no retry left). */
  | 'settled'
  /** A later attempt is scheduled. */
  | 'retry-later'
  /** Someone else is delivering this run, or it is not due. */
  | 'not-claimed';

/** A delivery attempt this instance holds: counted, leased, its token's hash recorded on the run. */
export interface ClaimedRun {
  id: string;
  workflowId: string;
  userId: string;
  language: TLanguage;
  inputData: unknown;
  attempts: number;
  expiresAt: Date | null;
  token: string;
}

/**
 * A new attempt's token and the run's fields that claim it: the attempt is counted, the row leased (another
 * instance's retry job takes it over only once the lease is past, after a crash), and the hash of the token
 * this attempt carries added to the run's (each attempt has its own token; the hashes of earlier attempts
 * stay valid, in case one of them did reach the service). A run written with its answers (the public API's
 * start) or sent them (the complete call) claims its first attempt in that same write.
 */
export function attemptClaim(now: Date) {
  const token = newToken();
  const tokenHash = sha256Hex(token);
  return {
    token,
    tokenHash,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
    set: {
      dispatchAttempts: sql`${workflowExecutions.dispatchAttempts} + 1`,
      nextDispatchAt: new Date(now.getTime() + LEASE_MS),
      resultTokenHash: sql`concat_ws(' ', ${workflowExecutions.resultTokenHash}, ${tokenHash}::text)`,
    },
  };
}

/** The columns a claimed attempt needs from its run. */
export const CLAIMED_RUN_FIELDS = {
  id: workflowExecutions.id,
  workflowId: workflowExecutions.workflowId,
  userId: workflowExecutions.userId,
  language: workflowExecutions.language,
  inputData: workflowExecutions.inputData,
  attempts: workflowExecutions.dispatchAttempts,
  expiresAt: workflowExecutions.expiresAt,
};

/** Takes one due attempt of a run (attemptClaim), or null when it is not due or not running. */
async function claimAttempt(db: DbOrTx, runId: string, now: Date): Promise<ClaimedRun | null> {
  const claim = attemptClaim(now);
  const [row] = await db
    .update(workflowExecutions)
    .set(claim.set)
    .where(
      and(
        eq(workflowExecutions.id, runId),
        eq(workflowExecutions.status, 'running'),
        lte(workflowExecutions.nextDispatchAt, now),
      ),
    )
    .returning(CLAIMED_RUN_FIELDS);
  return row ? { ...row, token: claim.token } : null;
}

/**
 * Deeper than this a synchronous answer is not parsed at all. A result is far shallower (output_data has at
 * most 20 levels, checked precisely when the result is applied); the margin is for answers that are not
 * results, which only mean "accepted".
 */
const MAX_ANSWER_DEPTH = 64;

type SyncAnswer =
  | { kind: 'result'; result: TSyncWorkflowResult }
  /** Not a result (no JSON, or not the result's shape): the service accepted the call. */
  | { kind: 'accepted' }
  | { kind: 'refused'; message: string };

function parseSyncResult(outcome: Extract<DeliveryOutcome, { kind: 'answered' }>): SyncAnswer {
  if (!outcome.body.trim().startsWith('{')) return { kind: 'accepted' };
  // Counted on the text, so no parser or serializer ever walks a 100,000-deep answer.
  if (jsonNestingDepth(outcome.body, MAX_ANSWER_DEPTH) > MAX_ANSWER_DEPTH) {
    return { kind: 'refused', message: `the answer is nested deeper than ${MAX_ANSWER_DEPTH} levels` };
  }
  try {
    const parsed = ZSyncWorkflowResult.safeParse(JSON.parse(outcome.body));
    return parsed.success ? { kind: 'result', result: parsed.data } : { kind: 'accepted' };
  } catch {
    return { kind: 'accepted' };
  }
}

/** Where and how a workflow's runs are delivered; a caller that read its workflow already passes them. */
export const WEBHOOK_TARGET_FIELDS = {
  webhookUrl: userWorkflows.webhookUrl,
  secret: userWorkflows.secretToken,
  previousSecret: userWorkflows.previousSecretToken,
  previousExpiresAt: userWorkflows.previousSecretExpiresAt,
};
export interface WebhookTarget {
  webhookUrl: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
}

async function sendAttempt(
  deps: AppDeps,
  run: ClaimedRun,
  target: WebhookTarget | undefined,
): Promise<DeliveryOutcome> {
  const [workflow] = target
    ? [target]
    : await deps.db
        .select(WEBHOOK_TARGET_FIELDS)
        .from(userWorkflows)
        .where(eq(userWorkflows.id, run.workflowId));
  if (!workflow) return { kind: 'refused', message: 'the workflow no longer exists' };
  const now = deps.now();
  const body = JSON.stringify({
    workflow_id: run.workflowId,
    execution_id: run.id,
    user_id: run.userId,
    secret_token: run.token,
    responses: await webhookResponses(deps, run.id, run.inputData, run.expiresAt),
    language: run.language,
    callback_url: `${deps.config.publicUrl}/api/workflow-result`,
  });
  const secrets = [workflow.secret];
  if (workflow.previousSecret && workflow.previousExpiresAt && workflow.previousExpiresAt > now) {
    secrets.push(workflow.previousSecret);
  }
  const started = performance.now();
  const outcome = await postWebhook({
    url: workflow.webhookUrl,
    body,
    allowPrivate: deps.config.allowPrivateWebhooks,
    // The demo workflows call the app itself; only with them on is that address allowed.
    selfPrefixes: deps.config.demoWorkflows ? selfWebhookPrefixes(deps.config.publicUrl) : [],
    headers: {
      // Stable per run, so a receiver can drop a retried delivery it already handled.
      ...webhookHeaders(secrets, `msg_${run.id}`, Math.floor(now.getTime() / 1000), body),
      // Fixed per workflow (for n8n's Header Auth); the per-run token travels in the body only.
      'x-flujo-token': headerTokenFor(workflow.secret),
    },
  });
  const seconds = (performance.now() - started) / 1000;
  deps.metrics.webhookAttempted(deliveryOutcome(outcome), seconds);
  // Recorded before the outcome is acted on, so an alert this attempt's failure raises quotes it.
  await recordDelivery(deps.db, {
    executionId: run.id,
    kind: 'call',
    at: now,
    attempt: run.attempts,
    httpStatus: outcome.kind === 'answered' ? outcome.status : null,
    outcome: logOutcome(outcome),
    error: outcome.kind === 'answered' ? null : outcome.message,
    latencyMs: seconds * 1000,
    responseBytes: outcome.kind === 'answered' ? Buffer.byteLength(outcome.body) : null,
    body: outcome.kind === 'answered' ? outcome.body : null,
  });
  return outcome;
}

/** An attempt as the delivery log names it: accepted (2xx), refused (4xx), error (else), blocked (address). */
function logOutcome(outcome: DeliveryOutcome): string {
  if (outcome.kind === 'refused') return 'blocked';
  if (outcome.kind === 'network-error') return 'error';
  if (outcome.status >= 200 && outcome.status < 300) return 'accepted';
  return outcome.status >= 400 && outcome.status < 500 ? 'refused' : 'error';
}

/** An attempt's outcome as the metrics name it. */
function deliveryOutcome(outcome: DeliveryOutcome): WebhookOutcome {
  if (outcome.kind === 'refused') return 'blocked';
  if (outcome.kind === 'network-error') return 'network_error';
  if (outcome.status >= 200 && outcome.status < 300) return 'success';
  return outcome.status >= 400 && outcome.status < 500 ? 'rejected' : 'error';
}

async function fail(
  deps: AppDeps,
  runId: string,
  errorCode: TRunFailureCode,
  message: string,
): Promise<DeliveryResult> {
  await settleRun(deps, runId, { status: 'failed', errorCode, errorMessage: message });
  return 'settled';
}

/** Acts on one attempt's outcome: accepted, settled, or scheduled again. */
async function handleOutcome(
  deps: AppDeps,
  run: ClaimedRun,
  outcome: DeliveryOutcome,
): Promise<DeliveryResult | 'retry-now'> {
  if (outcome.kind === 'refused') {
    return fail(
      deps,
      run.id,
      'webhook_blocked',
      `The workflow's webhook address is not allowed: ${outcome.message}`,
    );
  }
  if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
    await acknowledge(deps.db, run.id);
    const answer = parseSyncResult(outcome);
    if (answer.kind === 'refused') {
      return fail(deps, run.id, 'result_refused', `The workflow's result was refused: ${answer.message}`);
    }
    if (answer.kind === 'accepted') return 'delivered';
    try {
      await applyResult(deps, run.id, answer.result, undefined);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A result that breaks the rules (a disguised file, too big, output_data over 64 KB or 20 levels) ends
      // the run as failed, since no callback is coming; a run that had already ended (CONFLICT) is left as
      // it is.
      if (err.code !== 'CONFLICT')
        return fail(deps, run.id, 'result_refused', `The workflow's result was refused: ${err.message}`);
    }
    return 'settled';
  }
  if (outcome.kind === 'answered' && outcome.status >= 400 && outcome.status < 500) {
    return fail(
      deps,
      run.id,
      'workflow_refused',
      `The workflow service refused the run (HTTP ${outcome.status})`,
    );
  }
  const why = outcome.kind === 'answered' ? `HTTP ${outcome.status}` : `network error: ${outcome.message}`;
  const delay = RETRY_DELAYS_MS[run.attempts - 1];
  const next = delay === undefined ? null : new Date(deps.now().getTime() + delay);
  if (next === null || (run.expiresAt && next >= run.expiresAt)) {
    return fail(deps, run.id, 'workflow_unreachable', `The workflow service could not be reached (${why})`);
  }
  await deps.db
    .update(workflowExecutions)
    .set({ nextDispatchAt: next })
    .where(and(eq(workflowExecutions.id, run.id), eq(workflowExecutions.status, 'running')));
  return delay === 0 ? 'retry-now' : 'retry-later';
}

/** Every accepted delivery ends with this write (its lease let go), so it is prepared once per database. */
const acknowledgeRuns = preparedPerHandle((db) =>
  db
    .update(workflowExecutions)
    .set({ nextDispatchAt: null })
    .where(
      and(
        sql`${workflowExecutions.id} = any(${sql.placeholder('runIds')}::uuid[])`,
        eq(workflowExecutions.status, 'running'),
      ),
    )
    .prepare('acknowledge_deliveries'),
);

/** Acknowledgements of deliveries finishing at about the same time go in one write (at most 500). */
const acknowledge = groupedWrites<string>((db, runIds) => acknowledgeRuns(db).execute({ runIds }), 500);

/**
 * Sends an attempt this instance claimed, and the immediate retries after it; later retries are the job's.
 * `target` spares the workflow's read when the caller has it.
 */
export async function deliverClaimed(
  deps: AppDeps,
  run: ClaimedRun,
  target?: WebhookTarget,
): Promise<DeliveryResult> {
  const result = await handleOutcome(deps, run, await sendAttempt(deps, run, target));
  return result === 'retry-now' ? deliverRun(deps, run.id) : result;
}

/** Delivers a run now if it is due (first attempt and immediate retries); later retries are the job's. */
async function deliverRun(deps: AppDeps, runId: string): Promise<DeliveryResult> {
  const run = await claimAttempt(deps.db, runId, deps.now());
  return run ? deliverClaimed(deps, run) : 'not-claimed';
}

/**
 * The retry job: claims due deliveries with FOR UPDATE SKIP LOCKED, so instances running it at the same
 * time take different runs, then sends them outside the transaction.
 */
export async function deliverDueRuns(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const claimed = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(and(eq(workflowExecutions.status, 'running'), lte(workflowExecutions.nextDispatchAt, now)))
      .orderBy(asc(workflowExecutions.nextDispatchAt))
      .limit(JOB_BATCH)
      .for('update', { skipLocked: true });
    const runs: ClaimedRun[] = [];
    for (const { id } of due) {
      const run = await claimAttempt(tx, id, now);
      if (run) runs.push(run);
    }
    return runs;
  });
  await Promise.all(claimed.map((run) => deliverClaimed(deps, run)));
  return claimed.length;
}

/**
 * An admin's "retry delivery now" (decision 144): a running run whose service has not accepted it yet (a
 * retry is scheduled, `next_dispatch_at` set) is made due at once and delivered here, counted as one more
 * attempt. A run the service accepted (waiting for its callback), or that ended, is a 409.
 */
export async function retryDeliveryNow(deps: AppDeps, runId: string): Promise<DeliveryResult> {
  const now = deps.now();
  const [due] = await deps.db
    .update(workflowExecutions)
    .set({ nextDispatchAt: now })
    .where(
      and(
        eq(workflowExecutions.id, runId),
        eq(workflowExecutions.status, 'running'),
        isNotNull(workflowExecutions.nextDispatchAt),
      ),
    )
    .returning({ id: workflowExecutions.id });
  if (!due) throw conflict('deliveryNotRetriable');
  return deliverRun(deps, runId);
}
