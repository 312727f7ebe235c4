import { z } from 'zod';
import { API_KEY_LIMIT_MAX } from './api-keys.js';

/*
 * OAuth 2.1 for /mcp and /api/v1 (decision 161; its management API, decision 181): the consent page reads the pending request and approves or
 * denies it with the session cookie, under /api/oauth/requests/{uid}.
 */

/** GET /api/oauth/requests/{uid}: what an app asks for, as it described itself when it registered. */
export const ZOAuthRequest = z.object({
  client: z.object({
    id: z.string(),
    /** client_name from its registration; null: the page shows the client id. */
    name: z.string().nullable(),
    /** client_uri, https only. */
    uri: z.string().nullable(),
    /** logo_uri, https only. */
    logoUri: z.string().nullable(),
  }),
  /** Where the browser returns, so the person can tell a familiar app from a look-alike. */
  redirectUri: z.string(),
  /** What the tokens may be bound to: PUBLIC_URL/mcp, PUBLIC_URL/api/v1, PUBLIC_URL/api/v1/admin. */
  resources: z.array(z.string()),
  scopes: z.array(z.string()),
  /**
   * The app asks to manage Flujo as an administrator (PUBLIC_URL/api/v1/admin, the management API): only an
   * administrator can approve it.
   */
  admin: z.boolean(),
});
export type TOAuthRequest = z.infer<typeof ZOAuthRequest>;

/** POST /api/oauth/requests/{uid}/approve. */
export const ZOAuthConsent = z.object({
  /** Credits the app may spend per calendar month (UTC); left out: only the balance limits it. */
  monthlyCreditLimit: z.number().int().min(1).max(API_KEY_LIMIT_MAX).optional(),
});
export type TOAuthConsent = z.infer<typeof ZOAuthConsent>;

/** Where the browser goes next: back to the app, with a code or with access_denied. */
export const ZOAuthRedirect = z.object({ redirectTo: z.string() });

/** An app the person connected (an OAuth grant), as "Connected apps" in the account settings lists it. */
export const ZConnectedApp = z.object({
  id: z.uuid(),
  /** The app's client_name from its registration (else its client id). */
  name: z.string(),
  clientId: z.string(),
  grantedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  monthlyCreditLimit: z.number().int().nullable(),
  /** Credits the app charged in the current calendar month (UTC). */
  spentThisMonth: z.number().int(),
});
export type TConnectedApp = z.infer<typeof ZConnectedApp>;
export const ZConnectedAppList = z.object({ apps: z.array(ZConnectedApp) });

/** PATCH /api/account/connected-apps/{id}: a new monthly limit, or null for none. */
export const ZConnectedAppUpdate = z.object({
  monthlyCreditLimit: z.number().int().min(1).max(API_KEY_LIMIT_MAX).nullable(),
});
export type TConnectedAppUpdate = z.infer<typeof ZConnectedAppUpdate>;
