import { eq, sql } from 'drizzle-orm';
import { CONFIG_ENTRIES, CONFIG_KEYS, type ConfigKey, type ConfigValues } from '#shared/contract/config.js';
import type { DbOrTx } from '#server/db/client.js';
import { adminConfig } from '#server/db/schema.js';
import { badRequest, notFound } from '#server/lib/errors.js';

/**
 * Inserts any config entry that is missing; existing values are left as the admin set them. `initial` gives
 * a first value other than the entry's default (one that depends on the deployment).
 */
export async function seedConfig(db: DbOrTx, initial: Partial<ConfigValues> = {}): Promise<void> {
  await db
    .insert(adminConfig)
    .values(
      CONFIG_KEYS.map((key) => ({
        key,
        value: initial[key] ?? CONFIG_ENTRIES[key].defaultValue,
        description: CONFIG_ENTRIES[key].description,
      })),
    )
    .onConflictDoNothing({ target: adminConfig.key });
}

/** Prepared once per database or transaction handle: run starts and sign-ups read a setting every time. */
function settingLookup(db: DbOrTx) {
  return db
    .select({ value: adminConfig.value })
    .from(adminConfig)
    .where(eq(adminConfig.key, sql.placeholder('key')))
    .prepare('get_setting');
}
const settingLookups = new WeakMap<DbOrTx, ReturnType<typeof settingLookup>>();

/**
 * Reads one live setting. Read from the database each time so that an admin's change takes effect at once
 * on every server instance; a stored value that no longer passes its schema falls back to the default.
 */
export async function getSetting<K extends ConfigKey>(db: DbOrTx, key: K): Promise<ConfigValues[K]> {
  let lookup = settingLookups.get(db);
  if (!lookup) settingLookups.set(db, (lookup = settingLookup(db)));
  const [row] = await lookup.execute({ key });
  const parsed = CONFIG_ENTRIES[key].schema.safeParse(row?.value);
  return (parsed.success ? parsed.data : CONFIG_ENTRIES[key].defaultValue) as ConfigValues[K];
}

export interface SettingChange {
  key: ConfigKey;
  previousValue: unknown;
  value: unknown;
}

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_ENTRIES, key);
}

/**
 * Replaces the value of the entry with this id after checking it against its key's own schema (400 with the
 * schema's message otherwise). The next getSetting on any instance sees it: nothing is cached.
 */
export async function setSetting(
  tx: DbOrTx,
  id: string,
  value: unknown,
  updatedBy: string | null,
): Promise<{ entry: typeof adminConfig.$inferSelect; change: SettingChange }> {
  const [row] = await tx.select().from(adminConfig).where(eq(adminConfig.id, id)).for('update');
  if (!row) throw notFound('Configuration entry');
  if (!isConfigKey(row.key)) throw badRequest(`The entry ${row.key} cannot be edited`);
  const parsed = CONFIG_ENTRIES[row.key].schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'invalid value';
    throw badRequest(`Invalid value for ${row.key}: ${message}`, {
      fields: [{ field: 'value', message }],
    });
  }
  const [entry] = await tx
    .update(adminConfig)
    .set({ value: parsed.data, updatedBy, updatedAt: sql`now()` })
    .where(eq(adminConfig.id, id))
    .returning();
  if (!entry) throw notFound('Configuration entry');
  return { entry, change: { key: row.key, previousValue: row.value, value: parsed.data } };
}
