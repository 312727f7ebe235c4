import { z } from 'zod';
import { ZLanguage } from './common.js';

/*
 * The outbox as admins see it (GET /api/admin/emails, /api/admin/emails/{id}, POST .../retry). Lists page
 * like the other admin lists (`q`, `status`, `limit`, `offset`, X-Total-Count).
 */

export const EMAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'held'] as const;
export const ZEmailStatus = z.enum(EMAIL_STATUSES);
export type TEmailStatus = z.infer<typeof ZEmailStatus>;

const EMAIL_KINDS = [
  'password_reset',
  'password_changed',
  'email_verification',
  'email_change_verification',
  'email_change_notice',
  'account_deleted',
  'purchase_receipt',
  'webhook_disabled',
  'run_ended',
  'low_balance',
  'schedule_skipped',
  'schedule_paused',
  'schedule_uncovered',
  'workflow_alert',
] as const;
const ZEmailKind = z.enum(EMAIL_KINDS);
export type TEmailKind = z.infer<typeof ZEmailKind>;

export const ZAdminEmail = z.object({
  id: z.uuid(),
  to: z.string(),
  userId: z.uuid().nullable(),
  kind: ZEmailKind,
  language: ZLanguage,
  subject: z.string(),
  status: ZEmailStatus,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TAdminEmail = z.infer<typeof ZAdminEmail>;
export const ZAdminEmailList = z.array(ZAdminEmail);

/** One mail with both of its parts, to read it in the panel. */
export const ZAdminEmailDetail = ZAdminEmail.extend({ text: z.string(), html: z.string() });
export type TAdminEmailDetail = z.infer<typeof ZAdminEmailDetail>;
