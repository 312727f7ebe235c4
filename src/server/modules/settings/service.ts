import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { CONFIG_ENTRIES, CONFIG_KEYS, type ConfigKey, type ConfigValues } from '#shared/contract/config.js';
import type { DbOrTx } from '#server/db/client.js';
import { preparedPerHandle } from '#server/db/prepared.js';
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

/** Prepared once per connection: run starts and sign-ups read a setting every time. */
const settingLookup = preparedPerHandle((db) =>
  db
    .select({ value: adminConfig.value })
    .from(adminConfig)
    .where(eq(adminConfig.key, sql.placeholder('key')))
    .prepare('get_setting'),
);

type SettingRows = Awaited<ReturnType<ReturnType<typeof settingLookup>['execute']>>;
/** Reads of a setting under way, per handle: a caller asking meanwhile shares the read instead of sending its own. */
const readsUnderWay = new WeakMap<DbOrTx, Map<ConfigKey, Promise<SettingRows>>>();

/**
 * Reads one live setting. Read from the database, not kept, so that an admin's change takes effect on every
 * server instance at the next read; a stored value that no longer passes its schema falls back to the
 * default. Callers that ask while a read of the same setting is under way share it (the per-key request
 * limit asks on every public API request): the answer is then at most one read old, never older.
 */
export async function getSetting<K extends ConfigKey>(db: DbOrTx, key: K): Promise<ConfigValues[K]> {
  let reads = readsUnderWay.get(db);
  if (!reads) readsUnderWay.set(db, (reads = new Map()));
  let read = reads.get(key);
  if (!read) {
    const started = settingLookup(db).execute({ key });
    read = started;
    reads.set(key, started);
    const done = () => {
      if (reads.get(key) === started) reads.delete(key);
    };
    started.then(done, done);
  }
  const [row] = await read;
  return settingValue(key, row?.value);
}

/** Several live settings in one query, for a request that needs more than one before it can answer. */
export async function getSettings<K extends ConfigKey>(
  db: DbOrTx,
  keys: readonly K[],
): Promise<Pick<ConfigValues, K>> {
  const rows = await db
    .select({ key: adminConfig.key, value: adminConfig.value })
    .from(adminConfig)
    .where(inArray(adminConfig.key, [...keys]));
  const stored = new Map<string, unknown>(rows.map((r) => [r.key, r.value]));
  const values: Partial<Pick<ConfigValues, K>> = {};
  for (const key of keys) values[key] = settingValue(key, stored.get(key));
  return values as Pick<ConfigValues, K>;
}

/**
 * Live settings read inside another query, for a request that reads a row anyway (the public API's start
 * reads them with the key and the workflow): `column` is a JSON object of the keys' stored values, `values`
 * checks what it brought as getSetting does. Still read at every request, so nothing is ever stale.
 */
export function settingsColumn<K extends ConfigKey>(
  keys: readonly K[],
): { column: SQL<Record<string, unknown> | null>; values(stored: unknown): Pick<ConfigValues, K> } {
  return {
    column: sql<Record<
      string,
      unknown
    > | null>`(select json_object_agg(${adminConfig.key}, ${adminConfig.value}) from ${adminConfig} where ${inArray(adminConfig.key, [...keys])})`,
    values: (stored) => {
      const object = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
      const values: Partial<Pick<ConfigValues, K>> = {};
      for (const key of keys) values[key] = settingValue(key, object[key]);
      return values as Pick<ConfigValues, K>;
    },
  };
}

function settingValue<K extends ConfigKey>(key: K, stored: unknown): ConfigValues[K] {
  const parsed = CONFIG_ENTRIES[key].schema.safeParse(stored);
  return (parsed.success ? parsed.data : CONFIG_ENTRIES[key].defaultValue) as ConfigValues[K];
}

export interface SettingChange {
  key: ConfigKey;
  previousValue: unknown;
  value: unknown;
}

function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_ENTRIES, key);
}

/**
 * Replaces the value of the entry with this id after checking it against its key's own schema (400 with the
 * schema's message otherwise). Every read that begins after it commits, on any instance, sees it: nothing is kept.
 */
export async function setSetting(
  tx: DbOrTx,
  id: string,
  value: unknown,
  updatedBy: string | null,
): Promise<{ entry: typeof adminConfig.$inferSelect; change: SettingChange }> {
  const [row] = await tx.select().from(adminConfig).where(eq(adminConfig.id, id)).for('update');
  if (!row) throw notFound('configEntry');
  if (!isConfigKey(row.key)) throw badRequest({ key: 'configNotEditable', params: { key: row.key } });
  const parsed = CONFIG_ENTRIES[row.key].schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'invalid value';
    throw badRequest(
      { key: 'configInvalid', params: { key: row.key, message } },
      {
        fields: [{ field: 'value', message }],
      },
    );
  }
  const [entry] = await tx
    .update(adminConfig)
    .set({ value: parsed.data, updatedBy, updatedAt: sql`now()` })
    .where(eq(adminConfig.id, id))
    .returning();
  if (!entry) throw notFound('configEntry');
  return { entry, change: { key: row.key, previousValue: row.value, value: parsed.data } };
}
