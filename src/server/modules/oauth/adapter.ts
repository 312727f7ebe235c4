import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '#server/db/client.js';
import { apiKeys, oauthStore } from '#server/db/schema.js';
import { sha256Hex } from '#server/lib/tokens.js';

/** Models whose rows belong to a grant: they go when its credential (a row of api_keys) goes. */
const GRANT_BOUND = new Set(['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']);

/**
 * oidc-provider's storage on our database (decision 161). Every id is stored as its SHA-256 and the payload
 * without its `jti` (which repeats the id), because the id of a code or token is the secret the client holds.
 * Revoking a grant deletes its credential, and with it every row of the grant (a foreign key), so whatever
 * revokes API keys (a password reset, a suspension, disconnecting the app) revokes grants the same way.
 */
export function databaseAdapter(db: Db, now: () => Date): new (model: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _jti, ...stored } = payload;
      const grantId = GRANT_BOUND.has(this.model)
        ? this.model === 'Grant'
          ? id
          : (payload.grantId ?? null)
        : null;
      const values = {
        payload: stored as Record<string, unknown>,
        grantId,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
      };
      await db
        .insert(oauthStore)
        .values({ model: this.model, idHash: sha256Hex(id), ...values })
        .onConflictDoUpdate({ target: [oauthStore.model, oauthStore.idHash], set: values });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthStore.idHash, sha256Hex(id)), id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oauthStore)
        .where(and(eq(oauthStore.model, this.model), eq(oauthStore.uid, uid), this.live()));
      return row ? this.payloadOf(row, row.payload.jti as string | undefined) : undefined;
    }

    // Device flow is off: there are no user codes.
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oauthStore)
        .set({ consumedAt: now() })
        .where(and(eq(oauthStore.model, this.model), eq(oauthStore.idHash, sha256Hex(id))));
    }

    async destroy(id: string): Promise<void> {
      await db
        .delete(oauthStore)
        .where(and(eq(oauthStore.model, this.model), eq(oauthStore.idHash, sha256Hex(id))));
    }

    /** A reused refresh token or code, a revoked refresh token: the whole grant goes, its credential too. */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(apiKeys).where(eq(apiKeys.oauthGrantId, grantId));
      await db.delete(oauthStore).where(eq(oauthStore.grantId, grantId));
    }

    private live() {
      return or(isNull(oauthStore.expiresAt), gt(oauthStore.expiresAt, now()));
    }

    private async findWhere(where: ReturnType<typeof eq>, id: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oauthStore)
        .where(and(eq(oauthStore.model, this.model), where, this.live()));
      return row ? this.payloadOf(row, id) : undefined;
    }

    private payloadOf(row: typeof oauthStore.$inferSelect, id: string | undefined): AdapterPayload {
      return {
        ...(row.payload as AdapterPayload),
        ...(id === undefined ? {} : { jti: id }),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      };
    }
  };
}
