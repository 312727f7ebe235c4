import { createHash } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { ratingSummary, type TRatingSummary } from '#shared/contract/reviews.js';
import type { TPublicWorkflow, TPublicWorkflowDetail } from '#shared/contract/workflows.js';
import type { Database, Db } from '#server/db/client.js';
import { userWorkflows, workflowRatings } from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import {
  compressOnce,
  COMPRESS_MIN_CHARS,
  negotiateEncoding,
  type Encoding,
} from '#server/lib/content-encoding.js';
import { notFound } from '#server/lib/errors.js';
import { monthlyHealthOf, publicHealth } from '../operations/service.js';

/** Who is looking: visitors and users see public workflows; admins also the private ones (active only). */
export type Audience = 'public' | 'admin';

/** One coding of the list: its bytes and the headers of a 200 and a 304, built once per snapshot. */
interface CatalogueVariant {
  body: Buffer;
  /** Strong ETag of exactly these bytes (each coding has its own). */
  etag: string;
  ok: Readonly<Record<string, string>>;
  notModified: Readonly<Record<string, string>>;
}

export interface CatalogueSnapshot {
  /** The list, serialised once per catalogue change. */
  identity: CatalogueVariant;
  /** The same list compressed once; absent when the list is too small to gain from it. */
  br?: CatalogueVariant;
  gzip?: CatalogueVariant;
}

interface CacheEntry extends CatalogueSnapshot {
  version: string;
}

interface DbCache {
  entries: Map<Audience, CacheEntry>;
  /** A snapshot being built: concurrent requests for the same version share it. */
  building: Map<Audience, { version: string; entry: Promise<CacheEntry> }>;
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
 * the counts catch inserts and deletes. The run counts only grow (the tally pass adds to them), so their sum
 * moves with any of them; every review write bumps its workflow's rating version, so their sum moves too
 * (migration 0012 notifies on both). Each fold of the health tallies numbers the rows it changed, so the latest
 * number moves with the public health (migration 0027 notifies on it; pausing moves updated_at).
 */
async function catalogueVersion(db: Db): Promise<string> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`select concat_ws(':', count(*), count(*) filter (where is_active and archived_at is null),
          count(*) filter (where is_active and is_public and archived_at is null), max(updated_at)::text,
          sum(execution_count),
          (select coalesce(sum(${workflowRatings.version}), 0) from ${workflowRatings}),
          (select coalesce(max(folded), 0) from workflow_health_days)) as v
        from user_workflows`,
  );
  return row?.v ?? '';
}

function cacheOf(database: Database): DbCache {
  let cache = caches.get(database);
  if (!cache) {
    const created: DbCache = {
      entries: new Map(),
      building: new Map(),
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

/** Archived workflows are in no catalogue (decision 149); inactive ones neither. */
export const visibleTo = (audience: Audience) =>
  audience === 'admin'
    ? and(eq(userWorkflows.isActive, true), isNull(userWorkflows.archivedAt))
    : and(
        eq(userWorkflows.isActive, true),
        isNull(userWorkflows.archivedAt),
        eq(userWorkflows.isPublic, true),
      );

/** What a catalogue card shows; the execute screen's detail adds to it. */
export const CARD_FIELDS = {
  id: userWorkflows.id,
  name: userWorkflows.name,
  description: userWorkflows.description,
  category: userWorkflows.category,
  interactionType: userWorkflows.interactionType,
  creditsPerExecution: userWorkflows.creditsPerExecution,
};

/** What the catalogue adds to a card's own fields: its rating and its run count. */
const CARD_EXTRAS = {
  reviewCount: workflowRatings.reviewCount,
  ratingSum: workflowRatings.ratingSum,
  runCount: userWorkflows.executionCount,
  pausedAt: userWorkflows.pausedAt,
};

function withExtras<T extends { reviewCount: number | null; ratingSum: number | null }>({
  reviewCount,
  ratingSum,
  ...rest
}: T): Omit<T, 'reviewCount' | 'ratingSum'> & { rating: TRatingSummary } {
  return { ...rest, rating: ratingSummary(reviewCount ?? 0, ratingSum ?? 0) };
}

async function loadList(db: Db, audience: Audience): Promise<TPublicWorkflow[]> {
  const rows = await db
    .select({ ...CARD_FIELDS, ...CARD_EXTRAS })
    .from(userWorkflows)
    .leftJoin(workflowRatings, eq(workflowRatings.workflowId, userWorkflows.id))
    .where(visibleTo(audience))
    .orderBy(desc(userWorkflows.createdAt), desc(userWorkflows.id));
  const health = await monthlyHealthOf(
    db,
    rows.map((r) => r.id),
    new Date(),
  );
  return rows.map((row) => withHealth(withExtras(row), health.get(row.id)));
}

/** A card's pause flag and public health (operations, decision 145), in place of the raw columns. */
function withHealth<T extends { pausedAt: Date | null }>(
  { pausedAt, ...rest }: T,
  health: Parameters<typeof publicHealth>[0],
): Omit<T, 'pausedAt'> & { paused: boolean; health: ReturnType<typeof publicHealth> } {
  return { ...rest, paused: pausedAt !== null, health: publicHealth(health) };
}

/**
 * The answer depends on who asks (admins see more) and on the coding, so shared caches must not mix them up:
 * private, revalidated, varying on the cookie and on Accept-Encoding.
 */
function variant(body: Buffer, etag: string, encoding: Encoding | null): CatalogueVariant {
  const common = { etag, 'cache-control': 'private, no-cache', vary: 'Cookie, Accept-Encoding' };
  return {
    body,
    etag,
    notModified: Object.freeze({ ...common }),
    ok: Object.freeze({
      ...common,
      'content-type': 'application/json; charset=utf-8',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    }),
  };
}

async function buildEntry(db: Db, audience: Audience, version: string): Promise<CacheEntry> {
  const body = Buffer.from(JSON.stringify(await loadList(db, audience)));
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const tag = `${audience}-${digest}`;
  const entry: CacheEntry = { version, identity: variant(body, `"${tag}"`, null) };
  if (body.length >= COMPRESS_MIN_CHARS) {
    // Compressed once here, in the thread pool, and sent as ready bytes to every request until the next change.
    const encoded = await compressOnce(body);
    entry.br = variant(encoded.br, `"${tag}-br"`, 'br');
    entry.gzip = variant(encoded.gzip, `"${tag}-gz"`, 'gzip');
  }
  return entry;
}

/** The catalogue's bytes and ETags for this audience, rebuilt only when the catalogue version changed. */
export async function catalogueSnapshot(database: Database, audience: Audience): Promise<CatalogueSnapshot> {
  const db = database.db;
  const cache = cacheOf(database);
  const version = await currentVersion(cache, db);
  const cached = cache.entries.get(audience);
  if (cached && cached.version === version) return cached;
  const pending = cache.building.get(audience);
  if (pending && pending.version === version) return pending.entry;
  const entry = buildEntry(db, audience, version)
    .then((built) => {
      // A slower build of an older version must not replace a newer snapshot.
      if (cache.building.get(audience)?.entry === entry) cache.entries.set(audience, built);
      return built;
    })
    .finally(() => {
      if (cache.building.get(audience)?.entry === entry) cache.building.delete(audience);
    });
  cache.building.set(audience, { version, entry });
  return entry;
}

/** Whether an If-None-Match header names this ETag (or is `*`). */
function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

export interface CatalogueAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  /** The list's bytes in the chosen coding; null for a 304. */
  body: Buffer | null;
}

/**
 * The answer to a catalogue request: the coding the client prefers among those built (identity without an
 * Accept-Encoding), and a 304 when If-None-Match names that coding's ETag.
 */
export function catalogueAnswer(
  snapshot: CatalogueSnapshot,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | string[] | undefined,
): CatalogueAnswer {
  const encoding = negotiateEncoding(acceptEncoding);
  const chosen = (encoding && snapshot[encoding]) || snapshot.identity;
  return etagMatches(ifNoneMatch, chosen.etag)
    ? { status: 304, headers: chosen.notModified, body: null }
    : { status: 200, headers: chosen.ok, body: chosen.body };
}

/**
 * What the execute screen needs; inactive, archived, unknown and (for non-admins) private workflows are not
 * found. `test` is an admin's test run (decision 147), which runs any workflow that exists.
 */
export async function publicWorkflowDetail(
  db: Db,
  id: string,
  audience: Audience | 'test',
): Promise<Omit<TPublicWorkflowDetail, 'demoAssistant'>> {
  const [row] = await db
    .select({
      ...CARD_FIELDS,
      ...CARD_EXTRAS,
      welcomeMessage: userWorkflows.welcomeMessage,
      surveyQuestions: userWorkflows.surveyQuestions,
    })
    .from(userWorkflows)
    .leftJoin(workflowRatings, eq(workflowRatings.workflowId, userWorkflows.id))
    .where(and(eq(userWorkflows.id, id), audience === 'test' ? undefined : visibleTo(audience)));
  if (!row) throw notFound('workflow');
  const health = await monthlyHealthOf(db, [row.id], new Date());
  return withHealth(withExtras(row), health.get(row.id));
}

/**
 * Calls `onChange` after the catalogue changed, for listeners that hold a connection open (the MCP server's
 * streams). The version is read every `pollMs`, which sees changes made through any instance; the embedded
 * database's change notification (migration 0003) makes it read at once. A notification alone is not a
 * change: a run's start also writes user_workflows (its count), which the version leaves out. Answers a stop
 * function.
 */
export function watchCatalogue(database: Database, onChange: () => void, pollMs: number): () => void {
  let last: string | null = null;
  let reading: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const read = (): Promise<void> => {
    if (reading) {
      // A change may have landed after the read in flight began: read once more after it.
      again = true;
      return reading;
    }
    reading = catalogueVersion(database.db)
      .then((version) => {
        if (!stopped && last !== null && version !== last) onChange();
        last = version;
      })
      .catch(() => undefined)
      .finally(() => {
        reading = null;
        if (again && !stopped) {
          again = false;
          void read();
        }
      });
    return reading;
  };
  void read();
  const timer = setInterval(() => void read(), pollMs);
  timer.unref();
  const unlisten = database.pglite?.listen('catalogue_changed', () => void read()).catch(() => undefined);
  return () => {
    stopped = true;
    clearInterval(timer);
    void unlisten?.then((stop) => stop?.());
  };
}
