import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '#server/db/client.js';
import { userProfiles, userWorkflows } from '#server/db/schema.js';

/*
 * Search conditions of the admin lists, written so that each can use an index on a large table
 * (docs/decisions/040-admin-list-search.md): e-mails match by prefix (btree text_pattern_ops), names by
 * word prefix (GIN full-text index, 'simple' configuration), workflows (a small table) by substring.
 */

/** Escapes LIKE's wildcards so a user's `%` or `_` matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** E-mails are stored lower-cased; the pattern uses the `user_profiles_email_prefix_idx` index. */
export function emailStartsWith(q: string): SQL {
  return sql`${userProfiles.email} like ${`${escapeLike(q.trim().toLowerCase())}%`}`;
}

/** Words of the search text as a prefix tsquery (`ana:* & pér:*`), or null when it has none. */
export function wordPrefixQuery(q: string): string | null {
  const words =
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 6) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** The start of any word of the full name; uses the `user_profiles_full_name_fts_idx` GIN index. */
export function fullNameHasWordsStartingWith(q: string): SQL | null {
  const query = wordPrefixQuery(q);
  if (!query) return null;
  return sql`to_tsvector('simple', coalesce(${userProfiles.fullName}, '')) @@ to_tsquery('simple', ${query})`;
}

/** A user whose e-mail starts with q or whose name has words starting with q's words. */
export function userMatches(q: string): SQL {
  const byName = fullNameHasWordsStartingWith(q);
  return byName ? sql`(${emailStartsWith(q)} or ${byName})` : emailStartsWith(q);
}

/** Ids of the users whose e-mail starts with q, as a subquery. */
export function userIdsByEmailPrefix(q: string): SQL {
  return sql`(select ${userProfiles.id} from ${userProfiles} where ${emailStartsWith(q)})`;
}

/** Name (or, with description, also the description) contains q in either language, case-insensitive. */
export function workflowTextContains(q: string, withDescription: boolean): SQL {
  const pattern = `%${escapeLike(q.trim())}%`;
  const name = sql`(${userWorkflows.name}->>'es' ilike ${pattern} or ${userWorkflows.name}->>'en' ilike ${pattern})`;
  if (!withDescription) return name;
  return sql`(${name} or ${userWorkflows.description}->>'es' ilike ${pattern} or ${userWorkflows.description}->>'en' ilike ${pattern})`;
}

/**
 * Searches of the big tables (runs, ledger, audit) by user e-mail or workflow name are resolved to ids
 * first, so the database can use the tables' `(user_id | workflow_id, created_at)` indexes for each id. A
 * search so broad that more ids match than this stays a subquery: most rows match it anyway, and walking
 * the newest-first index while filtering finds a page quickly.
 */
export const MAX_RESOLVED_IDS = 1000;

const idIn = (column: AnyPgColumn, ids: string[]): SQL => (ids.length ? inArray(column, ids) : sql`false`);

/** `column` holds the id of a user whose e-mail starts with q. */
export async function userIdMatches(db: DbOrTx, column: AnyPgColumn, q: string): Promise<SQL> {
  const rows = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(emailStartsWith(q))
    .limit(MAX_RESOLVED_IDS + 1);
  if (rows.length > MAX_RESOLVED_IDS) return sql`${column} in ${userIdsByEmailPrefix(q)}`;
  return idIn(
    column,
    rows.map((r) => r.id),
  );
}

/** `column` holds the id of a workflow whose name contains q (either language). */
export async function workflowIdMatches(db: DbOrTx, column: AnyPgColumn, q: string): Promise<SQL> {
  const rows = await db
    .select({ id: userWorkflows.id })
    .from(userWorkflows)
    .where(workflowTextContains(q, false))
    .limit(MAX_RESOLVED_IDS + 1);
  if (rows.length > MAX_RESOLVED_IDS) {
    return sql`${column} in (select ${userWorkflows.id} from ${userWorkflows} where ${workflowTextContains(q, false)})`;
  }
  return idIn(
    column,
    rows.map((r) => r.id),
  );
}
