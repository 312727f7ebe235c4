import { asc, eq, inArray } from 'drizzle-orm';
import type { TLanguage } from '#shared/contract/common.js';
import type { TScheduleSkipReason } from '#shared/contract/schedules.js';
import { runFailureText, workflowMessageOf } from '#shared/i18n/run-failures.js';
import type { Tx } from '#server/db/client.js';
import { notifications, userProfiles, workflowExecutions } from '#server/db/schema.js';
import type { Job } from '#server/jobs/scheduler.js';
import type { AppDeps } from '#server/types.js';
import { appLink, enqueueMail } from '../mail/service.js';
import { onCreditsLow } from './hooks.js';

const BATCH = 50;
const SUMMARY_LINES = 3;
const SUMMARY_CHARS = 300;

/** Where the mails send a person to change what they are told. */
const NOTIFICATION_SETTINGS_PATH = '/account#notifications';

/**
 * The first lines of a text result (a string, or the `message` the workflow attached to it), cut to a few
 * hundred characters: enough to recognise the result in a mail, never the whole of it.
 */
function resultSummary(outputData: unknown, filename: string | null): string | null {
  if (filename) return filename;
  const text =
    typeof outputData === 'string'
      ? outputData
      : outputData &&
          typeof outputData === 'object' &&
          typeof (outputData as { message?: unknown }).message === 'string'
        ? (outputData as { message: string }).message
        : null;
  if (!text?.trim()) return null;
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, SUMMARY_LINES)
    .join(' / ');
  return lines.length > SUMMARY_CHARS ? `${lines.slice(0, SUMMARY_CHARS - 1)}…` : lines;
}

/**
 * Turns the notifications waiting for their mail into outbox rows. The rows are claimed with FOR UPDATE SKIP
 * LOCKED and each mail is written in the same transaction that marks its notification `queued`: any number of
 * instances share the work, and a crash either keeps both or neither, so a notice is mailed exactly once (the
 * outbox then delivers it at least once, decision 093). Answers how many mails it wrote.
 */
export async function mailDueNotifications(deps: AppDeps): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: notifications.id,
        userId: notifications.userId,
        kind: notifications.kind,
        runId: notifications.runId,
        params: notifications.params,
        email: userProfiles.email,
        fullName: userProfiles.fullName,
        language: userProfiles.language,
        deletedAt: userProfiles.deletedAt,
      })
      .from(notifications)
      .innerJoin(userProfiles, eq(userProfiles.id, notifications.userId))
      .where(eq(notifications.mailState, 'pending'))
      .orderBy(asc(notifications.createdAt))
      .limit(BATCH)
      .for('update', { of: notifications, skipLocked: true });
    let written = 0;
    for (const n of due) {
      // A deleted account has no address left; its notices are dropped unsent.
      if (!n.deletedAt && (await writeMail(tx, deps, n))) written += 1;
      if (n.kind === 'low_balance') {
        await onCreditsLow(tx, {
          userId: n.userId,
          balance: n.params.balance ?? 0,
          threshold: n.params.threshold ?? 0,
          at: deps.now(),
        });
      }
    }
    if (due.length > 0) {
      await tx
        .update(notifications)
        .set({ mailState: 'queued' })
        .where(
          inArray(
            notifications.id,
            due.map((n) => n.id),
          ),
        );
    }
    return written;
  });
}

interface DueNotice {
  kind: (typeof notifications.$inferSelect)['kind'];
  userId: string;
  runId: string | null;
  params: (typeof notifications.$inferSelect)['params'];
  email: string;
  fullName: string | null;
  language: TLanguage;
}

async function writeMail(tx: Tx, deps: AppDeps, n: DueNotice): Promise<boolean> {
  const language = n.language;
  const name = n.fullName ?? n.email;
  const workflow = n.params.workflowName?.[language] ?? '';
  const settingsLink = appLink(deps.config, NOTIFICATION_SETTINGS_PATH);
  const base = { to: n.email, userId: n.userId, language };
  switch (n.kind) {
    case 'run_completed':
    case 'run_failed': {
      if (!n.runId) return false;
      const [run] = await tx
        .select({
          status: workflowExecutions.status,
          creditsUsed: workflowExecutions.creditsUsed,
          outputData: workflowExecutions.outputData,
          outputFilename: workflowExecutions.outputFilename,
          errorCode: workflowExecutions.errorCode,
          errorMessage: workflowExecutions.errorMessage,
        })
        .from(workflowExecutions)
        .where(eq(workflowExecutions.id, n.runId));
      if (!run || (run.status !== 'completed' && run.status !== 'failed' && run.status !== 'expired'))
        return false;
      const completed = run.status === 'completed';
      await enqueueMail(tx, deps.config, {
        ...base,
        kind: 'run_ended',
        params: {
          name,
          workflow,
          status: run.status,
          // A run that did not complete was given its credits back.
          credits: completed ? run.creditsUsed : 0,
          summary: completed ? resultSummary(run.outputData, run.outputFilename) : null,
          failure:
            !completed && run.errorCode
              ? runFailureText(language, run.errorCode, workflowMessageOf(run.errorCode, run.errorMessage))
              : null,
          link: appLink(deps.config, `/my-workflows/${n.runId}`),
          settingsLink,
        },
      });
      return true;
    }
    case 'low_balance':
      await enqueueMail(tx, deps.config, {
        ...base,
        kind: 'low_balance',
        params: {
          name,
          balance: n.params.balance ?? 0,
          threshold: n.params.threshold ?? 0,
          link: appLink(deps.config, '/buy-credits'),
          settingsLink,
        },
      });
      return true;
    case 'schedule_skipped':
    case 'schedule_paused':
    case 'schedule_uncovered': {
      const schedule = {
        name,
        workflow,
        savedInputName: n.params.savedInputName ?? '',
        reason: (n.params.reason ?? null) as TScheduleSkipReason | null,
        dueAt: n.params.dueAt ?? deps.now().toISOString(),
        link: appLink(deps.config, n.kind === 'schedule_uncovered' ? '/buy-credits' : '/account'),
        settingsLink,
      };
      if (n.kind === 'schedule_uncovered') {
        await enqueueMail(tx, deps.config, {
          ...base,
          kind: 'schedule_uncovered',
          params: { ...schedule, balance: n.params.balance ?? 0, credits: n.params.credits ?? 0 },
        });
      } else {
        await enqueueMail(tx, deps.config, { ...base, kind: n.kind, params: schedule });
      }
      return true;
    }
  }
}

export const notificationMailJob: Job = {
  name: 'notification-mail',
  intervalMs: 2000,
  run: (deps) => mailDueNotifications(deps),
};
