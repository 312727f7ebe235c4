import { z } from 'zod';

import { ZLanguage } from './common.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './limits.js';

export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((e) => e.toLowerCase());

export const ZNewPassword = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const ZFullName = z.string().trim().min(1).max(120);

export const ZSignupRequest = z.object({
  email: ZEmail,
  password: ZNewPassword,
  fullName: ZFullName,
  /** The UI language at sign-up: the language of the person's mails (else the lng cookie, Accept-Language, en). */
  language: ZLanguage.optional(),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZSigninRequest = z.object({
  email: ZEmail,
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type TSigninRequest = z.infer<typeof ZSigninRequest>;

export const ZAccountStatus = z.enum(['active', 'suspended']);
export type TAccountStatus = z.infer<typeof ZAccountStatus>;

/** The session user, with both spellings (snake_case and camelCase) that clients read. */
export const ZSessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  fullName: z.string().nullable(),
  credits: z.number().int(),
  is_admin: z.boolean(),
  isAdmin: z.boolean(),
  account_status: ZAccountStatus,
  email_verified: z.boolean(),
  emailVerified: z.boolean(),
  /** Language of the person's mails and server texts. */
  language: ZLanguage,
  /** The person's IANA time zone (schedules' times); null until the browser has told it. */
  timezone: z.string().nullable(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

/** A mailed link's token: 256 random bits, base64url (43 characters); anything far off is refused early. */
const ZMailToken = z.string().trim().min(20).max(200);

/** POST /api/auth/password-reset/request: always 202 `{ ok: true }`, whether the account exists or not. */
export const ZPasswordResetRequest = z.object({ email: ZEmail });

/** POST /api/auth/password-reset/confirm: sets the password, ends every session, signs in here. */
export const ZPasswordResetConfirm = z.object({ token: ZMailToken, password: ZNewPassword });
export type TPasswordResetConfirm = z.infer<typeof ZPasswordResetConfirm>;

/** POST /api/auth/verify-email: marks the address verified (or applies a pending e-mail change). */
export const ZVerifyEmailRequest = z.object({ token: ZMailToken });
export const ZVerifyEmailResponse = z.object({
  ok: z.literal(true),
  /** The address now verified (the new one after an e-mail change). */
  email: z.string(),
  kind: z.enum(['verified', 'email_changed']),
});
export type TVerifyEmailResponse = z.infer<typeof ZVerifyEmailResponse>;
