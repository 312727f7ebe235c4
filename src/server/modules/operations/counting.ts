import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TLanguage } from '#shared/contract/common.js';
import type { Config } from '#server/config.js';
import type { Tx } from '#server/db/client.js';
import {
  adminAuditLogs,
  userProfiles,
  userWorkflows,
  workflowHealthNotes,
  workflowIncidents,
} from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { appLink, enqueueMail } from '../mail/service.js';
import { getSettings } from '../settings/service.js';
import { lastErrorsOf } from './delivery-log.js';

/** Runs of these origins are an admin's tries (issue 26's test runs): health, alerts and pauses ignore them. */
const UNCOUNTED_ORIGINS: readonly string[] = ['test'];
/** The failure-rate rule needs at least this many counted runs in the last hour. */
const RATE_MIN_RUNS = 5;
const HOUR_MS = 60 * 60 * 1000;

/** What settleRunIn knows of a run it just ended. */
export interface EndedRun {
  id: string;
  workflowId: string;
  origin: string;
  status: 'completed' | 'failed' | 'expired';
  errorCode: string | null;
  dispatchedAt: Date | null;
  executionTimeMs: number | null;
}

export interface CountingDeps {
  now: () => Date;
  config: Config;
}

/**
 * How health counts an ended run, or null when it does not count: an admin's test run, or a run that never
 * reached the workflow (the person left before sending). A refusal of the answers by the service (HTTP 4xx,
 * `workflow_refused`) is the customer's doing: counted apart, never as a failure (decision 145).
 */
function healthOutcome(run: EndedRun): 'completed' | 'failed' | 'expired' | 'refused' | null {
  if (UNCOUNTED_ORIGINS.includes(run.origin)) return null;
  if (run.status === 'completed') return 'completed';
  if (run.dispatchedAt === null) return null;
  if (run.status === 'failed' && run.errorCode === 'workflow_refused') return 'refused';
  return run.status;
}

/** The SQL condition of a counted run that failed or expired, for the last hour's rate (healthOutcome's rule). */
const countedRun = sql`origin not in ('test') and dispatched_at is not null and completed_at is not null
  and status in ('completed', 'failed', 'expired') and error_code is distinct from 'workflow_refused'`;

/**
 * Counts a run that just ended, in the transaction that ended it (decisions 145, 146): a note for the health
 * tallies; for a failure, the workflow's failures in a row (its row is locked by this update, so concurrent
 * failures count one after another and exactly one of them reaches the pause's threshold), the pause, and an
 * incident when a rule fires (one open per workflow, a unique index: one mail per incident); for a completed
 * run, the count back to zero and the open incident closed. A completed run of a healthy workflow writes only
 * its note: the reset's condition (`consecutive_failures > 0`) takes no lock when there is nothing to reset.
 */
export async function countRunEnded(tx: Tx, deps: CountingDeps, run: EndedRun): Promise<void> {
  const outcome = healthOutcome(run);
  if (outcome === null) return;
  const now = deps.now();
  await tx.insert(workflowHealthNotes).values({
    workflowId: run.workflowId,
    endedAt: now,
    outcome,
    durationMs: outcome === 'completed' ? run.executionTimeMs : null,
  });
  if (outcome === 'refused') return;
  if (outcome === 'completed') {
    await recovered(tx, deps, run.workflowId, now);
    return;
  }
  const settings = await getSettings(tx, [
    'alert_consecutive_failures',
    'alert_failure_rate_percent',
    'auto_pause_consecutive_failures',
  ]);
  const pauseAt = settings.auto_pause_consecutive_failures;
  const [counted] = await queryRows<{ failures: number; just_paused: boolean }>(
    tx,
    sql`with prev as (
          select id, paused_at from ${userWorkflows} where id = ${run.workflowId}::uuid for update
        )
        update ${userWorkflows} w set
          consecutive_failures = w.consecutive_failures + 1,
          paused_at = case when ${pauseAt}::int > 0 and w.consecutive_failures + 1 >= ${pauseAt}::int
            and w.paused_at is null then ${now.toISOString()}::timestamptz else w.paused_at end,
          paused_reason = case when ${pauseAt}::int > 0 and w.consecutive_failures + 1 >= ${pauseAt}::int
            and w.paused_at is null then 'auto' else w.paused_reason end,
          -- Moved when it pauses, so the catalogue (which watches updated_at) shows it unavailable.
          updated_at = case when ${pauseAt}::int > 0 and w.consecutive_failures + 1 >= ${pauseAt}::int
            and w.paused_at is null then ${now.toISOString()}::timestamptz else w.updated_at end
        from prev where w.id = prev.id
        returning w.consecutive_failures as failures,
          (prev.paused_at is null and w.paused_at is not null) as just_paused`,
  );
  if (!counted) return;
  if (counted.just_paused) {
    await tx.insert(adminAuditLogs).values({
      adminUserId: null,
      actionType: 'workflow_auto_paused',
      targetType: 'workflow',
      targetId: run.workflowId,
      details: { consecutiveFailures: counted.failures, lastRunId: run.id },
    });
    await mailAdmins(tx, deps, run.workflowId, { event: 'paused', rule: null, threshold: counted.failures });
  }
  let rule: 'consecutive_failures' | 'failure_rate' | null = null;
  if (counted.failures >= settings.alert_consecutive_failures) rule = 'consecutive_failures';
  else if (await rateAbove(tx, run.workflowId, now, settings.alert_failure_rate_percent))
    rule = 'failure_rate';
  if (rule === null) return;
  const [opened] = await tx
    .insert(workflowIncidents)
    .values({ workflowId: run.workflowId, kind: rule, openedAt: now })
    .onConflictDoNothing({ target: workflowIncidents.workflowId, where: sql`resolved_at is null` })
    .returning({ id: workflowIncidents.id });
  if (!opened) return;
  await mailAdmins(tx, deps, run.workflowId, {
    event: 'failing',
    rule,
    threshold:
      rule === 'consecutive_failures'
        ? settings.alert_consecutive_failures
        : settings.alert_failure_rate_percent,
  });
}

/** Whether the workflow's counted runs of the last hour fail more than `percent` % of the time (>= 5 runs). */
async function rateAbove(tx: Tx, workflowId: string, now: Date, percent: number): Promise<boolean> {
  const [rate] = await queryRows<{ total: number; failed: number }>(
    tx,
    sql`select count(*)::int as total, count(*) filter (where status <> 'completed')::int as failed
        from workflow_executions
        where workflow_id = ${workflowId}::uuid
          and completed_at > ${new Date(now.getTime() - HOUR_MS).toISOString()}::timestamptz
          and ${countedRun}`,
  );
  return !!rate && rate.total >= RATE_MIN_RUNS && rate.failed * 100 > percent * rate.total;
}

/**
 * A completed run: the failures in a row start again, and an open incident closes (one recovery mail) once
 * the workflow is no longer failing by its rule: at once for failures in a row, and for a failure rate when
 * the last hour's rate is back under the threshold, so a workflow that fails every other run does not open
 * and close an incident on each run.
 */
async function recovered(tx: Tx, deps: CountingDeps, workflowId: string, now: Date): Promise<void> {
  await tx
    .update(userWorkflows)
    .set({ consecutiveFailures: 0 })
    .where(and(eq(userWorkflows.id, workflowId), sql`${userWorkflows.consecutiveFailures} > 0`));
  const [open] = await tx
    .select({ id: workflowIncidents.id, kind: workflowIncidents.kind })
    .from(workflowIncidents)
    .where(and(eq(workflowIncidents.workflowId, workflowId), isNull(workflowIncidents.resolvedAt)));
  if (!open) return;
  if (open.kind === 'failure_rate') {
    const { alert_failure_rate_percent: percent } = await getSettings(tx, ['alert_failure_rate_percent']);
    if (await rateAbove(tx, workflowId, now, percent)) return;
  }
  const [closed] = await tx
    .update(workflowIncidents)
    .set({ resolvedAt: now })
    .where(and(eq(workflowIncidents.id, open.id), isNull(workflowIncidents.resolvedAt)))
    .returning({ id: workflowIncidents.id });
  if (closed) await mailAdmins(tx, deps, workflowId, { event: 'recovered', rule: null, threshold: 0 });
}

interface AlertFacts {
  event: 'failing' | 'paused' | 'recovered';
  rule: 'consecutive_failures' | 'failure_rate' | null;
  threshold: number;
}

/** One alert mail to each active admin who keeps workflow alerts on, in their language, in this transaction. */
async function mailAdmins(tx: Tx, deps: CountingDeps, workflowId: string, facts: AlertFacts) {
  const [workflow] = await tx
    .select({ name: userWorkflows.name })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  if (!workflow) return;
  const admins = await tx
    .select({
      id: userProfiles.id,
      email: userProfiles.email,
      name: userProfiles.fullName,
      language: userProfiles.language,
    })
    .from(userProfiles)
    .where(
      and(
        eq(userProfiles.isAdmin, true),
        eq(userProfiles.workflowAlerts, true),
        eq(userProfiles.accountStatus, 'active'),
        isNull(userProfiles.deletedAt),
      ),
    )
    .limit(100);
  if (admins.length === 0) return;
  const errors = facts.event === 'recovered' ? [] : await lastErrorsOf(tx, workflowId);
  for (const admin of admins) {
    const language: TLanguage = admin.language;
    await enqueueMail(tx, deps.config, {
      kind: 'workflow_alert',
      to: admin.email,
      userId: admin.id,
      language,
      params: {
        name: admin.name || admin.email,
        workflow: workflow.name[language],
        ...facts,
        errors,
        link: appLink(deps.config, `/admin/workflows/${workflowId}`),
        settingsLink: appLink(deps.config, '/admin/config'),
      },
    });
  }
}
