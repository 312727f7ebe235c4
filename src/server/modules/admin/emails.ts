import { and, eq, like, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZAdminEmailListQuery } from '#shared/contract/admin.js';
import type { TAdminEmail, TAdminEmailDetail, TEmailKind } from '#shared/contract/emails.js';
import type { Db } from '#server/db/client.js';
import { anyRow, newestFirst } from '#server/db/sql-helpers.js';
import { emailOutbox, userProfiles } from '#server/db/schema.js';
import { conflict, notFound } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import { sendPasswordResetMail } from '../auth/service.js';
import { writeAudit } from './audit.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import { readAdminPage, type Page } from './lists.js';
import { escapeLike } from './search.js';

type Row = typeof emailOutbox.$inferSelect;

function toAdminEmail(r: Row): TAdminEmail {
  return {
    id: r.id,
    to: r.toAddress,
    userId: r.userId,
    kind: r.kind as TEmailKind,
    language: r.language,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    lastError: r.lastError,
    nextAttemptAt: iso(r.nextAttemptAt),
    sentAt: isoOrNull(r.sentAt),
    createdAt: iso(r.createdAt),
  };
}

export async function listEmails(
  db: Db,
  query: z.output<typeof ZAdminEmailListQuery>,
): Promise<Page<TAdminEmail>> {
  const where: SQL | undefined = and(
    query.q ? like(emailOutbox.toAddress, `${escapeLike(query.q.toLowerCase())}%`) : undefined,
    query.status ? eq(emailOutbox.status, query.status) : undefined,
  );
  const order = newestFirst(emailOutbox.createdAt);
  const page = await readAdminPage(
    db,
    emailOutbox,
    where,
    order,
    query,
    db.select().from(emailOutbox).$dynamic(),
  );
  return { ...page, rows: page.rows.map(toAdminEmail) };
}

export async function getEmail(db: Db, id: string): Promise<TAdminEmailDetail> {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  if (!row) throw notFound('email');
  return { ...toAdminEmail(row), text: row.textBody, html: row.htmlBody };
}

/** Puts a failed mail back in the queue for a fresh series of tries. */
export async function retryEmail(deps: AppDeps, adminId: string, id: string): Promise<TAdminEmail> {
  if (!deps.config.mail.smtpUrl) throw conflict('smtpMissing');
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailOutbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: deps.now() })
      .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'failed')))
      .returning();
    if (!row) {
      if (!(await anyRow(tx, emailOutbox, eq(emailOutbox.id, id)))) throw notFound('email');
      throw conflict('onlyFailedRetry');
    }
    await writeAudit(tx, {
      adminId,
      action: 'email_retried',
      targetType: 'email',
      targetId: id,
      details: { to: row.toAddress, kind: row.kind },
    });
    return toAdminEmail(row);
  });
}

/** An admin sends a user a reset link; there is no way for an admin to set someone's password. */
export async function sendPasswordResetAsAdmin(
  deps: AppDeps,
  adminId: string,
  userId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, userId));
    if (!profile || profile.deletedAt) throw notFound('user');
    if (profile.accountStatus !== 'active') throw conflict('accountSuspended');
    await sendPasswordResetMail(tx, deps.config, profile, deps.now());
    await writeAudit(tx, {
      adminId,
      action: 'password_reset_sent',
      targetType: 'user',
      targetId: userId,
      details: { email: profile.email },
    });
  });
}
