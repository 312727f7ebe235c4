import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { ts } from '#server/db/sql-helpers.js';
import { emailOutbox } from '#server/db/schema.js';
import type { Job } from '#server/jobs/scheduler.js';
import { MailSendError, smtpTransport, type MailTransport } from '#server/providers/mail/smtp.js';
import type { AppDeps } from '#server/types.js';

/** Tries before a mail is marked failed: 30 s, 1, 2, 4, 8, 16, 32 min and 1 h apart (about two hours). */
export const MAIL_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60 * 1000;
/**
 * How long an instance owns a mail it is sending. One that dies mid-send leaves the mail `sending`; once the
 * claim runs out another instance sends it again (the only case where a mail can go out twice, under the same
 * Message-ID).
 */
const CLAIM_MS = 2 * 60 * 1000;
const BATCH = 20;
/** Sent, failed and held mails are kept this long for admins to read, then deleted. */
const MAIL_KEEP_DAYS = 30;

function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

const transports = new Map<string, MailTransport>();
function transportFor(smtpUrl: string): MailTransport {
  let transport = transports.get(smtpUrl);
  if (!transport) transports.set(smtpUrl, (transport = smtpTransport(smtpUrl)));
  return transport;
}

export interface SendOutcome {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends the mails that are due. Rows are claimed in one statement (FOR UPDATE SKIP LOCKED), so several
 * instances share the outbox without sending a mail twice, and no transaction stays open during the SMTP
 * conversation (the embedded database has a single connection).
 */
export async function sendDueMails(deps: AppDeps, transport?: MailTransport): Promise<SendOutcome> {
  const outcome: SendOutcome = { sent: 0, retrying: 0, failed: 0 };
  const smtpUrl = deps.config.mail.smtpUrl;
  if (!smtpUrl && !transport) return outcome;
  const mailer = transport ?? transportFor(smtpUrl!);
  const now = deps.now();
  const claimed = await claimDue(deps.db, now);
  const host = new URL(deps.config.publicUrl).hostname;
  for (const mail of claimed) {
    try {
      await mailer.send({
        from: deps.config.mail.from,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
        messageId: `<${mail.id}@${host}>`,
        language: mail.language,
      });
      await deps.db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: deps.now(), lastError: null })
        .where(and(eq(emailOutbox.id, mail.id), eq(emailOutbox.status, 'sending')));
      outcome.sent += 1;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const final = (err instanceof MailSendError && err.permanent) || mail.attempts >= MAIL_MAX_ATTEMPTS;
      await deps.db
        .update(emailOutbox)
        .set(
          final
            ? { status: 'failed', lastError: error }
            : {
                status: 'pending',
                lastError: error,
                nextAttemptAt: new Date(deps.now().getTime() + retryDelayMs(mail.attempts)),
              },
        )
        .where(and(eq(emailOutbox.id, mail.id), eq(emailOutbox.status, 'sending')));
      if (final) outcome.failed += 1;
      else outcome.retrying += 1;
    }
  }
  return outcome;
}

async function claimDue(db: Db, now: Date) {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        inArray(emailOutbox.status, ['pending', 'sending']),
        sql`${emailOutbox.nextAttemptAt} <= ${ts(now)}`,
      ),
    )
    .orderBy(emailOutbox.nextAttemptAt)
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return db
    .update(emailOutbox)
    .set({
      status: 'sending',
      attempts: sql`${emailOutbox.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + CLAIM_MS),
    })
    .where(inArray(emailOutbox.id, due))
    .returning();
}

/** Deletes mails that are done (sent, failed or held) and older than the keeping period. */
async function deleteOldMails(db: Db, now: Date): Promise<void> {
  await db
    .delete(emailOutbox)
    .where(
      and(
        inArray(emailOutbox.status, ['sent', 'failed', 'held']),
        lt(emailOutbox.createdAt, new Date(now.getTime() - MAIL_KEEP_DAYS * 24 * 60 * 60 * 1000)),
      ),
    );
}

export const mailSendJob: Job = {
  name: 'mail-send',
  intervalMs: 2000,
  run: (deps) => sendDueMails(deps),
};

export const mailCleanupJob: Job = {
  name: 'mail-cleanup',
  intervalMs: 60 * 60 * 1000,
  run: (deps) => deleteOldMails(deps.db, deps.now()),
};
