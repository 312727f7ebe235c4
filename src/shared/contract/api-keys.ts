import { z } from 'zod';

/*
 * Personal API keys: made and listed with the session cookie (under /api/account/api-keys), used only as
 * `Authorization: Bearer flj_...` on /api/v1 and /mcp.
 */

export const API_KEY_PREFIX = 'flj_';
/** How many keys one account may hold at once. */
export const API_KEYS_PER_ACCOUNT = 20;
export const API_KEY_NAME_MAX = 80;
export const API_KEY_LIMIT_MAX = 1_000_000;
/**
 * `user`: the person's own API (/api/v1, /mcp). `admin`: that and the management API under /api/v1/admin/;
 * only an admin may create one, and it stops opening /api/v1/admin/ when its owner stops being an admin.
 */
export const API_KEY_SCOPES = ['user', 'admin'] as const;
export type TApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** A credential is a key the person made, or the grant they approved to an OAuth client (decision 162). */
export const CREDENTIAL_KINDS = ['key', 'oauth'] as const;
export type TCredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** POST /api/account/api-keys. */
export const ZApiKeyCreate = z.object({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
  /** ISO date-time; the key stops working then. */
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  /** Credits the key may spend per calendar month (UTC); none means only the balance limits it. */
  monthlyCreditLimit: z.number().int().min(1).max(API_KEY_LIMIT_MAX).optional(),
  /** `admin` only for an admin (403 otherwise); `user` when left out. */
  scope: z.enum(API_KEY_SCOPES).optional(),
});
export type TApiKeyCreate = z.infer<typeof ZApiKeyCreate>;

const ZApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the key, enough to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  monthlyCreditLimit: z.number().int().nullable(),
  /** Credits this key charged in the current calendar month (UTC). */
  spentThisMonth: z.number().int(),
  scope: z.enum(API_KEY_SCOPES),
});
export type TApiKey = z.infer<typeof ZApiKey>;

/** The answer to a creation: the only time the key itself is shown. */
export const ZApiKeyCreated = ZApiKey.extend({ key: z.string() });
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

export const ZApiKeyList = z.object({ keys: z.array(ZApiKey) });
