import { createHash } from 'node:crypto';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { TPublicWorkflow, TPublicWorkflowDetail } from '../../../shared/contract/workflows.js';
import type { Db } from '../../db/client.js';
import { userWorkflows } from '../../db/schema.js';
import { queryRows } from '../../db/sql-helpers.js';
import { notFound } from '../../lib/errors.js';

/** Who is looking: visitors and users see public workflows; admins also the private ones (active only). */
export type Audience = 'public' | 'admin';

export interface CatalogueSnapshot {
  /** The list, serialised once per catalogue change. */
  body: Buffer;
  /** Strong ETag of exactly these bytes. */
  etag: string;
}

interface CacheEntry extends CatalogueSnapshot {
  version: string;
}

interface DbCache {
  entries: Map<Audience, CacheEntry>;
  /** A version check in flight: concurrent requests share it instead of each querying. */
  versionCheck: Promise<string> | null;
}

const caches = new WeakMap<Db, DbCache>();

/**
 * A cheap fingerprint of the catalogue, read from the database on every request so that a change made
 * through any server instance is seen at once. Writers of user_workflows bump updated_at (a toggle, an edit);
 * the counts catch inserts and deletes. executionCount changes nothing here: it is not in the public list.
 */
async function catalogueVersion(db: Db): Promise<string> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`select concat_ws(':', count(*), count(*) filter (where is_active),
          count(*) filter (where is_active and is_public), max(updated_at)::text) as v
        from user_workflows`,
  );
  return row?.v ?? '';
}

function cacheOf(db: Db): DbCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), versionCheck: null };
    caches.set(db, cache);
  }
  return cache;
}

function sharedVersionCheck(cache: DbCache, db: Db): Promise<string> {
  if (!cache.versionCheck) {
    cache.versionCheck = catalogueVersion(db).finally(() => {
      cache.versionCheck = null;
    });
  }
  return cache.versionCheck;
}

const visibleTo = (audience: Audience) =>
  audience === 'admin'
    ? eq(userWorkflows.isActive, true)
    : and(eq(userWorkflows.isActive, true), eq(userWorkflows.isPublic, true));

async function loadList(db: Db, audience: Audience): Promise<TPublicWorkflow[]> {
  return db
    .select({
      id: userWorkflows.id,
      name: userWorkflows.name,
      description: userWorkflows.description,
      category: userWorkflows.category,
      interactionType: userWorkflows.interactionType,
      creditsPerExecution: userWorkflows.creditsPerExecution,
    })
    .from(userWorkflows)
    .where(visibleTo(audience))
    .orderBy(desc(userWorkflows.createdAt), desc(userWorkflows.id));
}

/** The catalogue's bytes and ETag for this audience, rebuilt only when the catalogue version changed. */
export async function catalogueSnapshot(db: Db, audience: Audience): Promise<CatalogueSnapshot> {
  const cache = cacheOf(db);
  const version = await sharedVersionCheck(cache, db);
  const cached = cache.entries.get(audience);
  if (cached && cached.version === version) return cached;
  const body = Buffer.from(JSON.stringify(await loadList(db, audience)));
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const entry: CacheEntry = { version, body, etag: `"${audience}-${digest}"` };
  cache.entries.set(audience, entry);
  return entry;
}

/** Whether an If-None-Match header names this ETag (or is `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

/** What the execute screen needs; inactive, unknown and (for non-admins) private workflows are not found. */
export async function publicWorkflowDetail(
  db: Db,
  id: string,
  audience: Audience,
): Promise<TPublicWorkflowDetail> {
  const [row] = await db
    .select({
      id: userWorkflows.id,
      name: userWorkflows.name,
      description: userWorkflows.description,
      category: userWorkflows.category,
      interactionType: userWorkflows.interactionType,
      creditsPerExecution: userWorkflows.creditsPerExecution,
      welcomeMessage: userWorkflows.welcomeMessage,
      surveyQuestions: userWorkflows.surveyQuestions,
    })
    .from(userWorkflows)
    .where(and(eq(userWorkflows.id, id), or(visibleTo(audience))));
  if (!row) throw notFound('Workflow');
  return row;
}
