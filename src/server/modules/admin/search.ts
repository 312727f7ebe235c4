import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '#server/db/client.js';
import { userProfiles, userWorkflows, workflowNameFolded, workflowTextFolded } from '#server/db/schema.js';

/*
 * Search conditions of the admin lists: every word the admin typed matches some part of a name, e-mail,
 * workflow name or audit action, in any order and whatever its accents and case ("rez" finds "Pérez",
 * "example.com" an address, "informe pdf" "Informe de incidencia (PDF)").
 * Both sides go through flujo_fold (migration 0010): users keep the folded text in a stored column, workflows
 * and audit actions are folded in index expressions, each with a trigram GIN index, so a search of three
 * letters or more is an index lookup whose matches are checked against plain text.
 */

/** Escapes LIKE's wildcards so a user's `%` or `_` matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The folded expression `folded` contains the text, accents and case aside. */
function foldedContains(folded: SQL, text: string): SQL {
  return sql`${folded} like flujo_fold(${`%${escapeLike(text)}%`})`;
}

/** The search text's words (at most six), so "ana pérez" finds "Ana María Pérez". */
function searchWords(q: string): string[] {
  return q.trim().split(/\s+/).filter(Boolean).slice(0, 6);
}

/**
 * Every word of q somewhere in `folded`, in any order. Each word is its own `like`, so the trigram index on
 * `folded` serves each of them and the database intersects the matches.
 */
function foldedContainsEveryWord(folded: SQL, q: string): SQL {
  const words = searchWords(q);
  if (!words.length) return sql`true`;
  return sql.join(
    words.map((w) => foldedContains(folded, w)),
    sql` and `,
  );
}

/**
 * Every word of q somewhere in the user's e-mail or name ("example.com", "rez" for Pérez, "ana pérez"); uses
 * the `user_profiles_search_trgm_idx` index on the stored folded text.
 */
export function userMatches(q: string): SQL {
  return foldedContainsEveryWord(sql`${userProfiles.searchText}`, q);
}

/** Ids of the users that match q, as a subquery. */
function userIdsMatching(q: string): SQL {
  return sql`(select ${userProfiles.id} from ${userProfiles} where ${userMatches(q)})`;
}

/**
 * Name (or, with description, also the description) in either language holds every word of q, accents and
 * case aside; uses `user_workflows_name_trgm_idx` or `user_workflows_text_trgm_idx`.
 */
export function workflowTextContains(q: string, withDescription: boolean): SQL {
  return foldedContainsEveryWord(withDescription ? workflowTextFolded : workflowNameFolded, q);
}

/** Every word of q in an audit entry's action ("suspend" finds "user_suspended"); uses `audit_action_trgm_idx`. */
export function auditActionContains(column: AnyPgColumn, q: string): SQL {
  return foldedContainsEveryWord(sql`flujo_fold(${column})`, q);
}

/**
 * Searches of the big tables (runs, ledger, audit) by user e-mail or workflow name are resolved to ids
 * first, so the database can use the tables' `(user_id | workflow_id, created_at)` indexes for each id. A
 * search so broad that more ids match than this stays a subquery: most rows match it anyway, and walking
 * the newest-first index while filtering finds a page quickly.
 */
const MAX_RESOLVED_IDS = 1000;

const idIn = (column: AnyPgColumn, ids: string[]): SQL => (ids.length ? inArray(column, ids) : sql`false`);

/** `column` holds the id of a user whose e-mail or name matches q. */
export async function userIdMatches(db: DbOrTx, column: AnyPgColumn, q: string): Promise<SQL> {
  const rows = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(userMatches(q))
    .limit(MAX_RESOLVED_IDS + 1);
  if (rows.length > MAX_RESOLVED_IDS) return sql`${column} in ${userIdsMatching(q)}`;
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
