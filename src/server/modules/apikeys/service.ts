import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  API_KEY_PREFIX,
  API_KEYS_PER_ACCOUNT,
  type TApiKey,
  type TApiKeyCreate,
  type TApiKeyCreated,
} from '#shared/contract/api-keys.js';
import type { TSessionUser } from '#shared/contract/auth.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { apiKeys, userProfiles } from '#server/db/schema.js';
import { AppError, badRequest, notFound } from '#server/lib/errors.js';
import { sha256Hex } from '#server/lib/tokens.js';
import type { AppDeps } from '#server/types.js';
import { toSessionUser } from '../auth/service.js';

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
  };
}

export async function createApiKey(
  deps: AppDeps,
  userId: string,
  input: TApiKeyCreate,
): Promise<TApiKeyCreated> {
  const now = deps.now();
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
    const [held] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, userId));
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
    .where(eq(apiKeys.userId, userId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  const now = deps.now();
  return rows.map((row) => toApiKey(row, now));
}

/** Revokes (deletes) one of the person's keys; someone else's key is "not found". */
export async function deleteApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const gone = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (gone.length === 0) throw notFound('apiKey');
}

export async function deleteUserApiKeys(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(apiKeys).where(eq(apiKeys.userId, userId));
}

/** Who a valid key acts for. */
export interface ApiPrincipal {
  keyId: string;
  user: TSessionUser;
  monthlyCreditLimit: number | null;
  spentThisMonth: number;
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
 * for: null when it expired or its owner is suspended. Records its use now and then.
 */
export async function principalOf(
  deps: AppDeps,
  row: KeyLookupRow | undefined,
): Promise<ApiPrincipal | null> {
  const now = deps.now();
  if (!row) return null;
  if (row.key.expiresAt && row.key.expiresAt <= now) return null;
  if (row.profile.accountStatus !== 'active') return null;
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await deps.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.key.id));
  }
  return {
    keyId: row.key.id,
    user: toSessionUser(row.profile),
    monthlyCreditLimit: row.key.monthlyCreditLimit,
    spentThisMonth: spentThisMonth(row.key, now),
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
