import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { TSessionUser } from '#shared/contract/auth.js';
import { API_KEY_PREFIX, API_KEYS_PER_ACCOUNT } from '#shared/contract/api-keys.js';
import type {
  TConnectedApp,
  TConnectedAppUpdate,
  TOAuthConsent,
  TOAuthRequest,
} from '#shared/contract/oauth.js';
import type { DbOrTx } from '#server/db/client.js';
import { apiKeys, oauthStore, userProfiles } from '#server/db/schema.js';
import { AppError, notFound } from '#server/lib/errors.js';
import { newToken, sha256Hex } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import { principalOf, spentThisMonth, type ApiPrincipal } from '../apikeys/service.js';
import { OAUTH_SCOPES, oauthResources } from './provider.js';

/**
 * The principal of an OAuth access token presented where a token bound to one of `accepted` counts (RFC 8707: a
 * token bound to another resource is refused), or null: unknown, expired, revoked, or of a grant whose
 * credential is gone all look the same. The token acts through its grant's credential, so its limit, spending,
 * streams and scope are a key's.
 */
export async function authenticateAccessToken(
  deps: AppDeps,
  presented: string,
  accepted: readonly string[],
): Promise<ApiPrincipal | null> {
  const [row] = await deps.db
    .select({ token: oauthStore.payload, key: apiKeys, profile: userProfiles })
    .from(oauthStore)
    .innerJoin(apiKeys, eq(apiKeys.oauthGrantId, oauthStore.grantId))
    .innerJoin(userProfiles, eq(userProfiles.id, apiKeys.userId))
    .where(
      and(
        eq(oauthStore.model, 'AccessToken'),
        eq(oauthStore.idHash, sha256Hex(presented)),
        gt(oauthStore.expiresAt, deps.now()),
        isNull(oauthStore.consumedAt),
      ),
    );
  if (!row) return null;
  const audience = row.token.aud;
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (!audiences.some((a) => typeof a === 'string' && accepted.includes(a))) return null;
  return principalOf(deps, row);
}

/** Whether a request is for the MCP server (else it is for the public API). */
export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp?') || path.startsWith('/mcp/');
}

/**
 * The resources whose tokens a request to the public API or the MCP server accepts: /mcp's own, or on the public
 * API either of its two (a token for the management API works on the rest of the API as an admin key does; the
 * management routes themselves also ask for the grant's admin scope).
 */
export function audiencesOfPath(publicUrl: string, path: string): string[] {
  const resources = oauthResources(publicUrl);
  return isMcpPath(path) ? [resources.mcp] : [resources.api, resources.admin];
}

/** Whether a bearer credential is an API key (the rest are looked up as OAuth access tokens). */
export function isApiKey(presented: string): boolean {
  return presented.startsWith(API_KEY_PREFIX);
}

async function pendingInteraction(provider: Provider, uid: string) {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) throw notFound('oauthInteraction');
  const client = await provider.Client.find(String(interaction.params.client_id));
  if (!client) throw notFound('oauthInteraction');
  return { interaction, client };
}

/**
 * The resources the request names (RFC 8707; the provider has refused any that is not Flujo's), or /mcp when
 * it names none. Its tokens are each bound to one of them.
 */
function requestedResources(deps: AppDeps, resource: unknown): string[] {
  const named = (Array.isArray(resource) ? resource : [resource]).filter((r) => typeof r === 'string');
  return named.length > 0 ? [...new Set(named)] : [oauthResources(deps.config.publicUrl).mcp];
}

/** Whether a request asks for the management API, which only an administrator may grant (decision 181). */
function asksToManage(deps: AppDeps, resources: string[]): boolean {
  return resources.includes(oauthResources(deps.config.publicUrl).admin);
}

/** An https URI an app gave at registration, or null: nothing else is shown or linked. */
function httpsOnly(uri: string | undefined): string | null {
  if (!uri) return null;
  try {
    return new URL(uri).protocol === 'https:' ? uri : null;
  } catch {
    return null;
  }
}

/** What the consent page shows: only what the app said about itself at registration, and what it asks for. */
export async function describeInteraction(
  deps: AppDeps,
  provider: Provider,
  uid: string,
): Promise<TOAuthRequest> {
  const { interaction, client } = await pendingInteraction(provider, uid);
  const resources = requestedResources(deps, interaction.params.resource);
  return {
    client: {
      id: client.clientId,
      name: client.clientName ?? null,
      uri: httpsOnly(client.clientUri),
      logoUri: httpsOnly(client.logoUri),
    },
    redirectUri: String(interaction.params.redirect_uri),
    resources,
    scopes: [...OAUTH_SCOPES],
    admin: asksToManage(deps, resources),
  };
}

/**
 * Approves the request: a grant of every scope for the resources asked for, and its credential (a row of
 * api_keys, kind 'oauth') with the limit the person chose, made before the grant so its rows can refer to it.
 * Answers where the browser goes next (the provider's resume URL, which sends the code to the app).
 */
export async function approveInteraction(
  deps: AppDeps,
  provider: Provider,
  user: TSessionUser,
  uid: string,
  input: TOAuthConsent,
): Promise<string> {
  const { interaction, client } = await pendingInteraction(provider, uid);
  const resources = requestedResources(deps, interaction.params.resource);
  // The management API is an administrator's to grant; the grant's credential then has an admin key's scope,
  // which, as for a key, opens /api/v1/admin/ only while its owner is still an administrator.
  const admin = asksToManage(deps, resources);
  if (admin && !user.isAdmin) throw new AppError('FORBIDDEN', 'adminGrantScope');
  const grantId = newToken(24);
  await deps.db.transaction(async (tx) => {
    await tx
      .select({ id: userProfiles.id })
      .from(userProfiles)
      .where(eq(userProfiles.id, user.id))
      .for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), eq(apiKeys.kind, 'oauth')));
    if ((held?.n ?? 0) >= API_KEYS_PER_ACCOUNT) {
      throw new AppError('CONFLICT', { key: 'tooManyOAuthGrants', params: { max: API_KEYS_PER_ACCOUNT } });
    }
    await tx.insert(apiKeys).values({
      userId: user.id,
      name: client.clientName ?? client.clientId,
      prefix: 'oauth',
      // Nobody is ever given this value: the credential is reached through the grant's tokens only.
      keyHash: sha256Hex(newToken()),
      monthlyCreditLimit: input.monthlyCreditLimit ?? null,
      kind: 'oauth',
      scope: admin ? 'admin' : 'user',
      oauthGrantId: grantId,
      oauthClientId: client.clientId,
      createdAt: deps.now(),
    });
  });
  const grant = new provider.Grant({ accountId: user.id, clientId: client.clientId });
  grant.jti = grantId;
  for (const granted of resources) grant.addResourceScope(granted, OAUTH_SCOPES.join(' '));
  // The OpenID scopes asked for (n8n asks for openid too): the provider would otherwise ask again for them.
  const requested = String(interaction.params.scope ?? '').split(' ');
  const oidc = requested.filter((s) => s === 'openid' || s === 'offline_access');
  if (oidc.length > 0) grant.addOIDCScope(oidc.join(' '));
  await grant.save();
  interaction.result = { login: { accountId: user.id }, consent: { grantId } };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

/** Denies the request: the app receives `access_denied` (RFC 6749 4.1.2.1). */
export async function denyInteraction(provider: Provider, uid: string): Promise<string> {
  const { interaction } = await pendingInteraction(provider, uid);
  interaction.result = { error: 'access_denied', error_description: 'The person denied the request' };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

function toConnectedApp(row: typeof apiKeys.$inferSelect, now: Date): TConnectedApp {
  return {
    id: row.id,
    name: row.name,
    clientId: row.oauthClientId ?? '',
    grantedAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    monthlyCreditLimit: row.monthlyCreditLimit,
    spentThisMonth: spentThisMonth(row, now),
  };
}

/** The condition that finds the person's connected app `id` (someone else's, or an API key, is not it). */
const ownGrant = (userId: string, id: string) =>
  and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), eq(apiKeys.kind, 'oauth'));

/** The person's connected apps (their grants' credentials), oldest first. */
export async function listConnectedApps(deps: AppDeps, userId: string): Promise<TConnectedApp[]> {
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.kind, 'oauth')))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  const now = deps.now();
  return rows.map((row) => toConnectedApp(row, now));
}

/** Sets a connected app's monthly limit; someone else's app is "not found". */
export async function updateConnectedApp(
  deps: AppDeps,
  userId: string,
  id: string,
  input: TConnectedAppUpdate,
): Promise<TConnectedApp> {
  const [row] = await deps.db
    .update(apiKeys)
    .set({ monthlyCreditLimit: input.monthlyCreditLimit })
    .where(ownGrant(userId, id))
    .returning();
  if (!row) throw notFound('oauthGrant');
  return toConnectedApp(row, deps.now());
}

/**
 * Disconnects an app: its credential goes, and with it the grant and every code and token of it (a foreign
 * key), and every instance closes the streams it opened (the row's deletion notifies them, migration 0017).
 */
export async function disconnectApp(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<{ name: string; clientId: string | null }> {
  const [gone] = await db
    .delete(apiKeys)
    .where(ownGrant(userId, id))
    .returning({ name: apiKeys.name, clientId: apiKeys.oauthClientId });
  if (!gone) throw notFound('oauthGrant');
  return gone;
}
