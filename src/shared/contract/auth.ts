import { z } from 'zod';

import { PASSWORD_MAX, PASSWORD_MIN } from './limits.js';

export { PASSWORD_MAX, PASSWORD_MIN };

export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((e) => e.toLowerCase());

export const ZSignupRequest = z.object({
  email: ZEmail,
  password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
  fullName: z.string().trim().min(1).max(120),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZSigninRequest = z.object({
  email: ZEmail,
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type TSigninRequest = z.infer<typeof ZSigninRequest>;

export const ZAccountStatus = z.enum(['active', 'suspended']);
export type TAccountStatus = z.infer<typeof ZAccountStatus>;

/** The session user, with both spellings the spec's client reads. */
export const ZSessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  fullName: z.string().nullable(),
  credits: z.number().int(),
  is_admin: z.boolean(),
  isAdmin: z.boolean(),
  account_status: ZAccountStatus,
});
export type TSessionUser = z.infer<typeof ZSessionUser>;
