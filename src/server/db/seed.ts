import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { CATEGORIES } from '../../shared/contract/categories.js';
import type { Config } from '../config.js';
import { seedDemoWorkflows } from '../demo-hooks/seed-demo-workflows.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { createAccount } from '../modules/auth/service.js';
import { seedConfig } from '../modules/settings/service.js';
import type { Db } from './client.js';
import { categories, userProfiles, users } from './schema.js';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';

export interface SeedResult {
  /** Set only when a demo admin was created now: its password is shown once. */
  demoAdmin?: { email: string; password: string };
}

/** Idempotent first-start data: categories, live config, the first admin, the demo workflows. */
export async function seed(db: Db, config: Config): Promise<SeedResult> {
  await db
    .insert(categories)
    .values(CATEGORIES.map((c, i) => ({ key: c.key, name: c.name, sortOrder: i })))
    .onConflictDoNothing();
  await seedConfig(db);
  const result = await seedFirstAdmin(db, config);
  // After the admin: the demo workflows belong to the first one.
  if (config.demoWorkflows) await seedDemoWorkflows(db, config);
  return result;
}

async function seedFirstAdmin(db: Db, config: Config): Promise<SeedResult> {
  if (config.admin) {
    await ensureAdmin(db, config.admin.email, config.admin.password, 'keep');
    return {};
  }
  const [anyAdmin] = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.isAdmin, true))
    .limit(1);
  if (anyAdmin) return {};
  const password = randomBytes(12).toString('base64url');
  await ensureAdmin(db, DEMO_ADMIN_EMAIL, password, 'keep');
  return { demoAdmin: { email: DEMO_ADMIN_EMAIL, password } };
}

/**
 * Makes sure an admin with this e-mail exists: creates the account, or promotes an existing one.
 * With 'reset' the password of an existing account is replaced too (the CLI does that).
 */
export async function ensureAdmin(
  db: Db,
  email: string,
  password: string,
  existingPassword: 'keep' | 'reset',
): Promise<'created' | 'promoted'> {
  const normalized = email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalized));
  if (!existing) {
    await createAccount(db, { email: normalized, password, fullName: 'Admin', isAdmin: true });
    return 'created';
  }
  await db
    .update(userProfiles)
    .set({ isAdmin: true, updatedAt: sql`now()` })
    .where(eq(userProfiles.id, existing.id));
  if (existingPassword === 'reset') {
    await db
      .update(users)
      .set({ hashedPassword: await hashPassword(password) })
      .where(eq(users.id, existing.id));
  }
  return 'promoted';
}
