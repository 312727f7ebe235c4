import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { seedDemoWorkflows } from '../../../demo/register.js';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import { createAccount, hashPassword, revokeUserSessions } from '../modules/auth/service.js';
import { seedConfig } from '../modules/settings/service.js';
import type { AppDeps } from '../types.js';
import type { Db } from './client.js';
import { userProfiles, users } from './schema.js';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';

export interface SeedResult {
  /** Set only when a demo admin was created now: its password is shown once. */
  demoAdmin?: { email: string; password: string };
  /**
   * Set when the admin address to make sure of belongs to an account that is not an admin: it was left as it
   * is, and this says (to print as an error) how to promote it on purpose.
   */
  adminRefused?: string;
}

/** What making accounts needs: the database, and the metrics their sign-up bonus is counted in. */
type AccountDeps = Pick<AppDeps, 'db' | 'metrics'>;

/** Idempotent first-start data: live config, the first admin, the demo workflows. */
export async function seed(deps: Pick<AppDeps, 'db' | 'config' | 'metrics'>): Promise<SeedResult> {
  const { db, config } = deps;
  await seedConfig(db, { require_email_verification: config.mail.smtpUrl !== undefined });
  const result = await seedFirstAdmin(deps, config);
  // After the admin: the demo workflows belong to the first one. On every start, not just the first, because
  // this is also how the demo services (re)learn the secrets they verify calls with.
  if (config.demoWorkflows) await seedDemoWorkflows(db, config);
  return result;
}

async function seedFirstAdmin(deps: AccountDeps, config: Config): Promise<SeedResult> {
  const { db } = deps;
  if (config.admin) {
    const outcome = await ensureStartupAdmin(deps, config.admin.email, config.admin.password);
    return outcome === 'refused' ? { adminRefused: notPromotedMessage(config.admin.email) } : {};
  }
  const [anyAdmin] = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.isAdmin, true))
    .limit(1);
  if (anyAdmin) return {};
  const password = randomBytes(12).toString('base64url');
  const outcome = await ensureStartupAdmin(deps, DEMO_ADMIN_EMAIL, password);
  if (outcome === 'refused') return { adminRefused: notPromotedMessage(DEMO_ADMIN_EMAIL) };
  return outcome === 'created' ? { demoAdmin: { email: DEMO_ADMIN_EMAIL, password } } : {};
}

/** The command that makes an existing account an admin on purpose (its password is replaced). */
export function promoteCommand(email: string): string {
  return `npm run admin -- create --email ${email} --password '<a new password>' --promote-existing`;
}

function notPromotedMessage(email: string): string {
  return (
    `${email} belongs to an account that is not an admin, so it was not made an admin: whoever registered ` +
    'that address would get the admin panel with a password of their choosing. To make it an admin on ' +
    `purpose (its password is replaced and every session of it is signed out), run:\n    ${promoteCommand(email)}`
  );
}

/** The account that holds this address, if any. */
async function accountByEmail(db: Db, email: string): Promise<{ id: string; isAdmin: boolean } | undefined> {
  const [row] = await db
    .select({ id: users.id, isAdmin: userProfiles.isAdmin })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.id, users.id))
    .where(eq(users.email, email.trim().toLowerCase()));
  return row;
}

/** Creates an admin account, or returns false when the address was taken meanwhile (another instance). */
async function createAdmin(deps: AccountDeps, email: string, password: string): Promise<boolean> {
  try {
    await createAccount(deps, { email, password, fullName: 'Admin', isAdmin: true });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT') return false;
    throw err;
  }
}

/**
 * The admin the start makes sure of (ADMIN_EMAIL, or the demo admin): created when the address is free; an
 * existing admin is kept as it is, password included; an existing non-admin is never promoted ('refused').
 */
async function ensureStartupAdmin(
  deps: AccountDeps,
  email: string,
  password: string,
): Promise<'created' | 'kept' | 'refused'> {
  const found = await findOrCreateAdmin(deps, email, password);
  if (found === 'created') return 'created';
  return found.isAdmin ? 'kept' : 'refused';
}

/**
 * Creates the admin, or finds the account that already has the address ('created' when this call made it).
 * Another instance creating it at the same moment is found rather than an error.
 */
async function findOrCreateAdmin(deps: AccountDeps, email: string, password: string) {
  const normalized = email.trim().toLowerCase();
  const existing = await accountByEmail(deps.db, normalized);
  if (existing) return existing;
  if (await createAdmin(deps, normalized, password)) return 'created' as const;
  const raced = await accountByEmail(deps.db, normalized);
  if (!raced) throw new Error(`the account ${normalized} could neither be created nor found`);
  return raced;
}

/**
 * `npm run admin -- create`: creates the admin, or replaces the password of an existing admin; an existing
 * non-admin is promoted only with `promoteExisting` ('refused' otherwise, nothing changed). Whenever an existing
 * account's password is replaced every session of it ends, so whoever held the account before is signed out.
 */
export async function setAdminCredentials(
  deps: AccountDeps,
  email: string,
  password: string,
  options: { promoteExisting: boolean },
): Promise<'created' | 'password-reset' | 'promoted' | 'refused'> {
  const existing = await findOrCreateAdmin(deps, email, password);
  if (existing === 'created') return 'created';
  if (!existing.isAdmin && !options.promoteExisting) return 'refused';
  const { id, isAdmin } = existing;
  const hashedPassword = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ hashedPassword }).where(eq(users.id, id));
    if (!isAdmin) {
      await tx
        .update(userProfiles)
        .set({ isAdmin: true, updatedAt: sql`now()` })
        .where(eq(userProfiles.id, id));
    }
    await revokeUserSessions(tx, id);
  });
  return isAdmin ? 'password-reset' : 'promoted';
}
