import type { TLanguage } from '#shared/contract/common.js';
import type { TEmailKind } from '#shared/contract/emails.js';
import type { Config } from '#server/config.js';
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { emailOutbox } from '#server/db/schema.js';
import { renderMail, type MailParams } from './templates.js';

export interface OutgoingMail<K extends TEmailKind> {
  kind: K;
  to: string;
  /** The account it concerns; null once that account no longer exists. */
  userId: string | null;
  language: TLanguage;
  params: MailParams[K];
}

/**
 * Writes a mail to the outbox. Call it with the transaction of the change that causes the mail: the mail
 * exists exactly when the change does. Without an SMTP server the mail is held for admins to read.
 */
export async function enqueueMail<K extends TEmailKind>(
  tx: DbOrTx,
  config: Config,
  mail: OutgoingMail<K>,
): Promise<string> {
  const rendered = renderMail(mail.kind, mail.language, mail.params);
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      userId: mail.userId,
      toAddress: mail.to,
      kind: mail.kind,
      language: mail.language,
      subject: rendered.subject,
      textBody: rendered.text,
      htmlBody: rendered.html,
      status: config.mail.smtpUrl ? 'pending' : 'held',
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/** An absolute link into the web app, as the mail's reader opens it. */
export function appLink(config: Config, path: string, query: Record<string, string> = {}): string {
  const url = new URL(path, `${config.publicUrl}/`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

/** Mails not yet sent (pending or being sent) and how long the oldest has waited, in seconds. */
export interface OutboxBacklog {
  pending: number;
  sending: number;
  oldestSeconds: number;
}

/**
 * The outbox's backlog, for the metrics. Only the rows the send job still has to deal with are read (the
 * partial index on pending and sending mails covers them), so this stays cheap however many sent mails are kept.
 */
export async function outboxBacklog(db: DbOrTx, now: Date): Promise<OutboxBacklog> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${emailOutbox.status} = 'pending')`.mapWith(Number),
      sending: sql<number>`count(*) filter (where ${emailOutbox.status} = 'sending')`.mapWith(Number),
      oldest: sql<Date | null>`min(${emailOutbox.createdAt})`.mapWith(emailOutbox.createdAt),
    })
    .from(emailOutbox)
    .where(inArray(emailOutbox.status, ['pending', 'sending']));
  const oldest = row?.oldest ?? null;
  return {
    pending: row?.pending ?? 0,
    sending: row?.sending ?? 0,
    oldestSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0,
  };
}
