import { eq } from 'drizzle-orm';
import {
  CONFIG_ENTRIES,
  CONFIG_KEYS,
  type ConfigKey,
  type ConfigValues,
} from '../../../shared/contract/config.js';
import type { DbOrTx } from '../../db/client.js';
import { adminConfig } from '../../db/schema.js';

/** Inserts any config entry that is missing; existing values are left as the admin set them. */
export async function seedConfig(db: DbOrTx): Promise<void> {
  await db
    .insert(adminConfig)
    .values(
      CONFIG_KEYS.map((key) => ({
        key,
        value: CONFIG_ENTRIES[key].defaultValue,
        description: CONFIG_ENTRIES[key].description,
      })),
    )
    .onConflictDoNothing({ target: adminConfig.key });
}

/**
 * Reads one live setting. Read from the database each time so that an admin's change takes effect at once
 * on every server instance; a stored value that no longer passes its schema falls back to the default.
 */
export async function getSetting<K extends ConfigKey>(db: DbOrTx, key: K): Promise<ConfigValues[K]> {
  const [row] = await db
    .select({ value: adminConfig.value })
    .from(adminConfig)
    .where(eq(adminConfig.key, key));
  const parsed = CONFIG_ENTRIES[key].schema.safeParse(row?.value);
  return (parsed.success ? parsed.data : CONFIG_ENTRIES[key].defaultValue) as ConfigValues[K];
}
