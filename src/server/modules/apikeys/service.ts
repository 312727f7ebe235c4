import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  API_KEY_PREFIX,
  API_KEYS_PER_ACCOUNT,
  type TApiKey,
  type TApiKeyCreate,
  type TApiKeyCreated,
  type TApiKeyScope,
  type TCredentialKind,
} from '#shared/contract/api-keys.js';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { apiKeys, userProfiles } from '#server/db/schema.js';
import { anyRow } from '#server/db/sql-helpers.js';
import { AppError, badRequest, notFound } from '#server/lib/errors.js';
import { sha256Hex } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import { toSessionUser } from '../auth/service.js';
import { getSetting } from '../settings/service.js';

/** 24 random bytes: 192 bits, 32 base64url characters after the prefix. */
const KEY_BYTES = 24;
/** Characters of the key kept in clear for lists: the prefix and 8 of the random part (48 of its bits). */
const SHOWN_CHARS = API_KEY_PREFIX.length + 8;
/** `last_used_at` is written at most this often per key, so a busy key does not write on every call. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** The first instant of the UTC month of `now`: the spending counter's period. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

type KeyRow = typeof apiKeys.$inferSelect;

/** What a credential (key or grant) charged in the month of `now`. */
export function spentThisMonth(row: Pick<KeyRow, 'spentMonth' | 'spentCredits'>, now: Date): number {
  return row.spentMonth && row.spentMonth.getTime() === monthStart(now).getTime() ? row.spentCredits : 0;
}

function toApiKey(row: KeyRow, now: Date): TApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    monthlyCreditLimit: row.monthlyCreditLimit,
    spentThisMonth: spentThisMonth(row, now),
    scope: row.scope,
  };
}

export async function createApiKey(
  deps: AppDeps,
  user: Pick<TSessionUser, 'id' | 'isAdmin'>,
  input: TApiKeyCreate,
): Promise<TApiKeyCreated> {
  const now = deps.now();
  const userId = user.id;
  const scope = input.scope ?? 'user';
  if (scope === 'admin' && !user.isAdmin) throw new AppError('FORBIDDEN', 'adminKeyScope');
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt <= now) {
    throw badRequest('expiryInPast', {
      fields: [{ field: 'expiresAt', message: 'Must be in the future' }],
    });
  }
  const key = `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;
  const row = await deps.db.transaction(async (tx) => {
    // The profile row is locked so that concurrent creations count each other's keys.
    await tx
      .select({ id: userProfiles.id })
      .from(userProfiles)
      .where(eq(userProfiles.id, userId))
      .for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.kind, 'key')));
    if ((held?.n ?? 0) >= API_KEYS_PER_ACCOUNT) {
      throw new AppError('CONFLICT', { key: 'tooManyApiKeys', params: { max: API_KEYS_PER_ACCOUNT } });
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        userId,
        name: input.name,
        prefix: key.slice(0, SHOWN_CHARS),
        keyHash: sha256Hex(key),
        monthlyCreditLimit: input.monthlyCreditLimit ?? null,
        expiresAt,
        scope,
        createdAt: now,
      })
      .returning();
    return inserted!;
  });
  return { ...toApiKey(row, now), key };
}

export async function listApiKeys(deps: AppDeps, userId: string): Promise<TApiKey[]> {
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.kind, 'key')))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  const now = deps.now();
  return rows.map((row) => toApiKey(row, now));
}

/** Revokes (deletes) one of the person's keys; someone else's key is "not found". */
export async function deleteApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const gone = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), eq(apiKeys.kind, 'key')))
    .returning({ id: apiKeys.id });
  if (gone.length === 0) throw notFound('apiKey');
}

/** What revoking an account's access took away, for the notice that tells the person. */
export interface RevokedAccess {
  /** The names of the revoked API keys, oldest first. */
  apiKeys: string[];
  /** The names of the applications whose OAuth grants were revoked, oldest first. */
  oauthApps: string[];
}

/**
 * Revokes everything that acts for the account without its password: every API key and every OAuth grant
 * (a grant's credential is a row of api_keys too, and its tokens go with it). A password reset and a suspension call it, a password change unless
 * the person keeps them, an account's deletion too. Runs in the caller's transaction; each credential's row
 * going tells every server instance to close the event streams it opened (migration 0017). Sessions are the
 * caller's business: a password change keeps the one it was made in.
 */
export async function revokeAccountAccess(tx: DbOrTx, userId: string): Promise<RevokedAccess> {
  const gone = await tx
    .delete(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .returning({ id: apiKeys.id, name: apiKeys.name, kind: apiKeys.kind, createdAt: apiKeys.createdAt });
  gone.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const namesOf = (kind: TCredentialKind) => gone.filter((k) => k.kind === kind).map((k) => k.name);
  return { apiKeys: namesOf('key'), oauthApps: namesOf('oauth') };
}

/** Whether the key still exists (an event stream asks once it watches for the key's end). */
export async function apiKeyIsLive(db: DbOrTx, keyId: string): Promise<boolean> {
  return anyRow(db, apiKeys, eq(apiKeys.id, keyId));
}

/** Who a valid key acts for. */
export interface ApiPrincipal {
  keyId: string;
  user: TSessionUser;
  monthlyCreditLimit: number | null;
  spentThisMonth: number;
  /** The key's name, for the audit log of what an admin key changed. */
  keyName: string;
  /** 'admin' opens /api/v1/admin/ while `user.isAdmin` holds (requireAdminKey checks both). */
  scope: TApiKeyScope;
}

/** What every key lookup reads: the key, and its owner's profile (joined with `keyOwner`). */
export const KEY_LOOKUP = { key: apiKeys, profile: userProfiles };
export const keyOwner = eq(userProfiles.id, apiKeys.userId);

export interface KeyLookupRow {
  key: KeyRow;
  profile: typeof userProfiles.$inferSelect;
}

/**
 * The key's principal, or null for anything that is not a live key of an active account: malformed,
 * truncated, unknown, revoked (deleted), expired or suspended all look the same to the caller. Whatever was
 * presented takes the same path: it is hashed and the hash looked up, so no comparison ever runs over the
 * secret or its prefix (a near miss and a stranger's guess cost the same), and no shape check answers
 * earlier for some keys than for others.
 */
export async function authenticateApiKey(deps: AppDeps, presented: string): Promise<ApiPrincipal | null> {
  const [row] = await deps.db
    .select(KEY_LOOKUP)
    .from(apiKeys)
    .innerJoin(userProfiles, keyOwner)
    .where(eq(apiKeys.keyHash, sha256Hex(presented)));
  return principalOf(deps, row);
}

/**
 * What a looked-up key (by authenticateApiKey, or by a route that reads more in the same round trip) acts
 * for: null when it expired or its owner is suspended. Records its use now and then. While addresses must be
 * verified (`require_email_verification`), the key of an account whose address is not yet verified is refused
 * with a 403 that says so: whoever registered someone else's address could otherwise make keys before its
 * owner ever saw the account (the owner's password reset then revokes them).
 */
export async function principalOf(
  deps: AppDeps,
  row: KeyLookupRow | undefined,
): Promise<ApiPrincipal | null> {
  const now = deps.now();
  if (!row) return null;
  if (row.key.expiresAt && row.key.expiresAt <= now) return null;
  if (row.profile.accountStatus !== 'active') return null;
  // Verified owners (nearly everyone) pay no extra read on this path.
  if (!row.profile.emailVerifiedAt && (await getSetting(deps.db, 'require_email_verification'))) {
    throw new AppError('EMAIL_NOT_VERIFIED', 'apiKey');
  }
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await deps.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.key.id));
  }
  return {
    keyId: row.key.id,
    user: toSessionUser(row.profile),
    monthlyCreditLimit: row.key.monthlyCreditLimit,
    spentThisMonth: spentThisMonth(row.key, now),
    keyName: row.key.name,
    scope: row.key.scope,
  };
}

/**
 * What the key spent in the month starting at `month` (a timestamptz expression), in SQL: the run start locks
 * the key's row, checks its limit against this and adds the charge to it in the same statement
 * (executions/start.ts), so concurrent starts with one key queue on the row and never pass the limit.
 */
export function spentThisMonthSql(month: SQL): SQL {
  return sql`case when ${apiKeys.spentMonth} = ${month} then ${apiKeys.spentCredits} else 0 end`;
}

/**
 * For a charge made outside a start, inside the charge's transaction: a chat's first message sent through a
 * key (decision 164). The key's row is locked first, before the charge touches the run and the balance, in the
 * order a start takes its locks (the key, then the account), so the two never wait on each other in a circle,
 * and concurrent charges with one key queue and never pass its limit. The answer adds a charge to the key's
 * spending of the month, or refuses it past the limit with 402 SPENDING_LIMIT (the caller's rolled-back
 * transaction then charged nothing).
 */
export async function lockKeySpending(
  tx: DbOrTx,
  keyId: string,
  now: Date,
): Promise<(price: number) => Promise<void>> {
  const month = monthStart(now);
  const [key] = await tx
    .select({
      limit: apiKeys.monthlyCreditLimit,
      spent: sql<number>`(${spentThisMonthSql(sql`${month.toISOString()}::timestamptz`)})::int`,
    })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .for('update');
  // Revoked since the request was authorised: nothing is charged through it.
  if (!key) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
  return async (price) => {
    if (key.limit !== null && key.spent + price > key.limit) {
      throw new AppError('SPENDING_LIMIT', 'default', {
        required: price,
        remaining: Math.max(0, key.limit - key.spent),
      });
    }
    await tx
      .update(apiKeys)
      .set({ spentCredits: key.spent + price, spentMonth: month })
      .where(eq(apiKeys.id, keyId));
  };
}
