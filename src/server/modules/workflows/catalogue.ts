import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { TPublicWorkflow, TPublicWorkflowDetail } from '#shared/contract/workflows.js';
import type { Database, Db } from '#server/db/client.js';
import { userWorkflows } from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { notFound } from '#server/lib/errors.js';

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
  /**
   * True once this process listens to the database's change notifications; until then (and always on
   * PostgreSQL, where other instances write too) every request checks the version.
   */
  watching: boolean;
  /** Set by a change notification: the next request checks the version. */
  dirty: boolean;
  /** The version last read from the database. */
  version: string | null;
}

const caches = new WeakMap<Database, DbCache>();

/**
 * A cheap fingerprint of the catalogue. On PostgreSQL it is read on every request, so that a change made
 * through any server instance is seen at once. The embedded database belongs to this one process, and a
 * trigger notifies it of every change before the write returns (migration 0003), so there the version is
 * read only after a change. Writers of user_workflows bump updated_at (a toggle, an edit);
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

function cacheOf(database: Database): DbCache {
  let cache = caches.get(database);
  if (!cache) {
    const created: DbCache = {
      entries: new Map(),
      versionCheck: null,
      watching: false,
      dirty: true,
      version: null,
    };
    caches.set(database, created);
    void database.pglite
      ?.listen('catalogue_changed', () => {
        created.dirty = true;
        created.versionCheck = null;
      })
      .then(() => {
        created.watching = true;
      })
      .catch(() => undefined);
    cache = created;
  }
  return cache;
}

/**
 * The catalogue version to serve from. Concurrent requests share one check in flight; a change
 * notification detaches that check (it may have read the old state), so later requests start a fresh one.
 */
function currentVersion(cache: DbCache, db: Db): Promise<string> {
  if (cache.watching && !cache.dirty && cache.version !== null) return Promise.resolve(cache.version);
  if (!cache.versionCheck) {
    cache.dirty = false;
    const check: Promise<string> = catalogueVersion(db)
      .then((version) => {
        if (cache.versionCheck === check) cache.version = version;
        return version;
      })
      .finally(() => {
        if (cache.versionCheck === check) cache.versionCheck = null;
      });
    cache.versionCheck = check;
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
export async function catalogueSnapshot(database: Database, audience: Audience): Promise<CatalogueSnapshot> {
  const db = database.db;
  const cache = cacheOf(database);
  const version = await currentVersion(cache, db);
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

export interface CatalogueAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  /** The list's bytes; null for a 304. */
  body: Buffer | null;
}

/**
 * The answer to a catalogue request. The answer depends on who asks (admins see more), so shared caches
 * must not mix them up: private, revalidated, varying on the cookie.
 */
export function catalogueAnswer(
  snapshot: CatalogueSnapshot,
  ifNoneMatch: string | undefined,
): CatalogueAnswer {
  const headers = { etag: snapshot.etag, 'cache-control': 'private, no-cache', vary: 'Cookie' };
  return etagMatches(ifNoneMatch, snapshot.etag)
    ? { status: 304, headers, body: null }
    : {
        status: 200,
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
        body: snapshot.body,
      };
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
    .where(and(eq(userWorkflows.id, id), visibleTo(audience)));
  if (!row) throw notFound('Workflow');
  return row;
}
