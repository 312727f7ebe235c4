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
  .object({
    fullName: ZFullName.optional(),
    language: ZLanguage.optional(),
    /** An IANA time zone name (schedules are shown and created in it); unknown names are refused. */
    timezone: z.string().min(1).max(64).optional(),
  })
  .refine((b) => b.fullName !== undefined || b.language !== undefined || b.timezone !== undefined, {
    message: 'Nothing to change',
  });
export type TProfileUpdate = z.infer<typeof ZProfileUpdate>;

/** POST /api/account/password: needs the current password; every other session of the account ends. */
export const ZPasswordChange = z.object({
  currentPassword: ZCurrentPassword,
  newPassword: ZNewPassword,
  /** Keep the account's API keys working; without it (the default) the change revokes them all. */
  keepApiAccess: z
    .boolean()
    .optional()
    .describe("Keep the account's API keys working (default false: the change revokes them)"),
});
export type TPasswordChange = z.infer<typeof ZPasswordChange>;

/**
 * POST /api/account/email: needs the password. The new address gets a verification link and the old one a
 * notice; the change applies only when the link is used (202).
 */
export const ZEmailChange = z.object({ newEmail: ZEmail, password: ZCurrentPassword });
export type TEmailChange = z.infer<typeof ZEmailChange>;
export const ZEmailChangeResponse = z.object({ ok: z.literal(true), pendingEmail: z.string() });

/** POST /api/account/sessions/revoke-others: ends every session but this one. */
export const ZRevokeOthersResponse = z.object({ ok: z.literal(true), revoked: z.number().int().min(0) });

/**
 * GET /api/account/sessions: the account's signed-in devices, most recently used first. `browser` and `os` are
 * names parsed from the User-Agent ("Chrome", "Android"; null when it does not say); the place is a country
 * code from a trusted proxy or the address with its last part masked ("203.0.113.x"); `lastUsedAt` is
 * precise to the hour. `current` marks the session of the request.
 */
const ZAccountSession = z.object({
  id: z.uuid(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  country: z.string().nullable(),
  network: z.string().nullable(),
  lastUsedAt: z.string(),
  createdAt: z.string(),
  current: z.boolean(),
});
export type TAccountSession = z.infer<typeof ZAccountSession>;
export const ZAccountSessionList = z.array(ZAccountSession);

/** DELETE /api/account/sessions/{id}: signs that one device out (this one too: the cookie is cleared). */
export const ZAccountSessionParams = z.object({ id: z.uuid() });

/** POST /api/account/delete: needs the password; the person is signed out and their personal data erased. */
export const ZAccountDelete = z.object({ password: ZCurrentPassword });

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
