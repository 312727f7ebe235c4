import { and, eq } from 'drizzle-orm';
import type { Config } from '#server/config.js';
import type { DbOrTx } from '#server/db/client.js';
import type { userProfiles } from '#server/db/schema.js';
import { accountTokens, type ACCOUNT_TOKEN_PURPOSES } from '#server/db/schema.js';
import { newToken, sha256Hex } from '#server/lib/tokens.js';
import { appLink, enqueueMail } from '../mail/service.js';
import { getSetting } from '../settings/service.js';

/*
 * The account mails and the single-use links they carry. Each is written inside the caller's transaction, so
 * a mail exists exactly when the change that causes it does.
 */

type Profile = typeof userProfiles.$inferSelect;
export type TokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

const HOUR_MS = 60 * 60 * 1000;
/** Verification links (sign-up and e-mail change) work this long. */
const VERIFY_LINK_HOURS = 24;

const displayName = (p: Profile) => p.fullName ?? p.email;

/** Ends every link of this purpose the account holds. */
export async function deleteTokens(tx: DbOrTx, userId: string, purpose: TokenPurpose): Promise<void> {
  await tx
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose)));
}

/** Issues a new link token; older tokens of the same purpose for the account stop working. */
async function issueToken(
  tx: DbOrTx,
  userId: string,
  purpose: TokenPurpose,
  email: string,
  expiresAt: Date,
): Promise<string> {
  await deleteTokens(tx, userId, purpose);
  const token = newToken(32);
  await tx.insert(accountTokens).values({ userId, purpose, email, tokenHash: sha256Hex(token), expiresAt });
  return token;
}

/** Writes a reset link for this account to the outbox (inside the caller's transaction). */
export async function sendPasswordResetMail(
  tx: DbOrTx,
  config: Config,
  profile: Profile,
  now: Date,
): Promise<void> {
  const minutes = await getSetting(tx, 'password_reset_minutes');
  const token = await issueToken(
    tx,
    profile.id,
    'password_reset',
    profile.email,
    new Date(now.getTime() + minutes * 60_000),
  );
  await enqueueMail(tx, config, {
    kind: 'password_reset',
    to: profile.email,
    userId: profile.id,
    language: profile.language,
    params: { name: displayName(profile), link: appLink(config, '/reset-password', { token }), minutes },
  });
}

/** The notice of a new password, naming the API keys it revoked (`revokedKeys`). */
export async function sendPasswordChangedMail(
  tx: DbOrTx,
  config: Config,
  profile: Profile,
  revokedKeys: string[],
): Promise<void> {
  await enqueueMail(tx, config, {
    kind: 'password_changed',
    to: profile.email,
    userId: profile.id,
    language: profile.language,
    params: { name: displayName(profile), link: appLink(config, '/forgot-password'), revokedKeys },
  });
}

/** Writes a verification link for the account's own address to the outbox. */
export async function sendVerificationMail(
  tx: DbOrTx,
  config: Config,
  profile: Profile,
  now: Date,
): Promise<void> {
  const token = await issueToken(
    tx,
    profile.id,
    'email_verification',
    profile.email,
    new Date(now.getTime() + VERIFY_LINK_HOURS * HOUR_MS),
  );
  await enqueueMail(tx, config, {
    kind: 'email_verification',
    to: profile.email,
    userId: profile.id,
    language: profile.language,
    params: {
      name: displayName(profile),
      link: appLink(config, '/verify-email', { token }),
      hours: VERIFY_LINK_HOURS,
    },
  });
}

/** Asks for an e-mail change: the new address gets the link that applies it, the old one a notice. */
export async function sendEmailChangeMails(
  tx: DbOrTx,
  config: Config,
  profile: Profile,
  newEmail: string,
  now: Date,
): Promise<void> {
  const token = await issueToken(
    tx,
    profile.id,
    'email_change',
    newEmail,
    new Date(now.getTime() + VERIFY_LINK_HOURS * HOUR_MS),
  );
  const name = displayName(profile);
  await enqueueMail(tx, config, {
    kind: 'email_change_verification',
    to: newEmail,
    userId: profile.id,
    language: profile.language,
    params: {
      name,
      email: newEmail,
      link: appLink(config, '/verify-email', { token }),
      hours: VERIFY_LINK_HOURS,
    },
  });
  await enqueueMail(tx, config, {
    kind: 'email_change_notice',
    to: profile.email,
    userId: profile.id,
    language: profile.language,
    params: { name, newEmail, link: appLink(config, '/forgot-password') },
  });
}
