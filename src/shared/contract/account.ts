import { z } from 'zod';
import { ZEmail, ZFullName, ZNewPassword } from './auth.js';
import { ZLanguage } from './common.js';
import { ZLedgerNoteKind, ZLedgerNoteParams } from './credits.js';
import { PASSWORD_MAX } from './limits.js';

/*
 * Account settings: every route under /api/account acts on the signed-in person's own account.
 */

const ZCurrentPassword = z.string().min(1).max(PASSWORD_MAX);

/** PATCH /api/account/profile: at least one field; answers the session user. */
export const ZProfileUpdate = z
  .object({ fullName: ZFullName.optional(), language: ZLanguage.optional() })
  .refine((b) => b.fullName !== undefined || b.language !== undefined, { message: 'Nothing to change' });
export type TProfileUpdate = z.infer<typeof ZProfileUpdate>;

/** POST /api/account/password: needs the current password; every other session of the account ends. */
export const ZPasswordChange = z.object({ currentPassword: ZCurrentPassword, newPassword: ZNewPassword });
export type TPasswordChange = z.infer<typeof ZPasswordChange>;

/**
 * POST /api/account/email: needs the password. The new address gets a verification link and the old one a
 * notice; the change applies only when the link is used (202).
 */
export const ZEmailChange = z.object({ newEmail: ZEmail, password: ZCurrentPassword });
export type TEmailChange = z.infer<typeof ZEmailChange>;
export const ZEmailChangeResponse = z.object({ ok: z.literal(true), pendingEmail: z.string() });
export type TEmailChangeResponse = z.infer<typeof ZEmailChangeResponse>;

/** POST /api/account/sessions/revoke-others: ends every session but this one. */
export const ZRevokeOthersResponse = z.object({ ok: z.literal(true), revoked: z.number().int().min(0) });
export type TRevokeOthersResponse = z.infer<typeof ZRevokeOthersResponse>;

/** POST /api/account/delete: needs the password; the person is signed out and their personal data erased. */
export const ZAccountDelete = z.object({ password: ZCurrentPassword });
export type TAccountDelete = z.infer<typeof ZAccountDelete>;

/** GET /api/account/export: a JSON file (attachment) with everything the account holds. */
export const ZAccountExport = z.object({
  exportedAt: z.string(),
  profile: z.object({
    id: z.uuid(),
    email: z.string(),
    fullName: z.string().nullable(),
    language: ZLanguage,
    credits: z.number().int(),
    emailVerified: z.boolean(),
    createdAt: z.string(),
    lastLoginAt: z.string().nullable(),
  }),
  runs: z.array(
    z.object({
      id: z.uuid(),
      workflowId: z.uuid(),
      status: z.string(),
      language: ZLanguage,
      inputData: z.unknown(),
      outputData: z.unknown(),
      outputType: z.string().nullable(),
      outputFilename: z.string().nullable(),
      creditsUsed: z.number().int(),
      createdAt: z.string(),
      completedAt: z.string().nullable(),
    }),
  ),
  transactions: z.array(
    z.object({
      id: z.uuid(),
      amount: z.number().int(),
      type: z.string(),
      planName: z.string().nullable(),
      usdAmount: z.string().nullable(),
      notes: z.string().nullable(),
      noteKind: ZLedgerNoteKind,
      noteParams: ZLedgerNoteParams,
      workflowId: z.uuid().nullable(),
      createdAt: z.string(),
    }),
  ),
  subscriptions: z.array(
    z.object({
      id: z.uuid(),
      planName: z.string(),
      creditsPerMonth: z.number().int(),
      priceUsd: z.string(),
      status: z.string(),
      nextRenewalDate: z.string(),
      createdAt: z.string(),
    }),
  ),
  /** The person's reviews of workflows, hidden ones too. */
  reviews: z.array(
    z.object({
      id: z.uuid(),
      workflowId: z.uuid(),
      rating: z.number().int(),
      comment: z.string().nullable(),
      hidden: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
});
export type TAccountExport = z.infer<typeof ZAccountExport>;
