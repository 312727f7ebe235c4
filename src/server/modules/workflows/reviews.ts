import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  ratingSummary,
  type TAdminReview,
  type TMyReview,
  type TMyReviewAnswer,
  type TRatingSummary,
  type TReview,
  type TReviewList,
} from '#shared/contract/reviews.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import {
  reviewHolds,
  userProfiles,
  userWorkflows,
  workflowExecutions,
  workflowRatings,
  workflowReviews,
} from '#server/db/schema.js';
import { userRefColumns } from '#server/db/refs.js';
import { anyRow, exactTotal, readPage } from '#server/db/sql-helpers.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import { forbidden, notFound } from '#server/lib/errors.js';
import { visibleTo, type Audience } from './catalogue.js';

type ReviewRow = typeof workflowReviews.$inferSelect;

/** Reviews' list order; the id keeps reviews written in the same instant in a stable order. */
const NEWEST_REVIEWS_FIRST = [desc(workflowReviews.createdAt), desc(workflowReviews.id)];

/** "Ana García López" -> "Ana G.": enough to tell reviewers apart without publishing a full name. */
function shortName(fullName: string | null | undefined): string | null {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  const [first, second] = words;
  if (!first) return null;
  return second ? `${first} ${[...second][0]!.toLocaleUpperCase()}.` : first;
}

const toReview = (
  r: ReviewRow,
  author: { fullName: string | null; deletedAt: Date | null } | null,
): TReview => ({
  id: r.id,
  rating: r.rating,
  comment: r.comment,
  authorName: author && !author.deletedAt ? shortName(author.fullName) : null,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const toMine = (r: ReviewRow, fullName: string | null): TMyReview => ({
  ...toReview(r, { fullName, deletedAt: null }),
  hidden: r.hiddenAt !== null,
});

/** The workflow, if this audience may see it (the catalogue's rule); not found otherwise. */
async function assertVisible(db: DbOrTx, workflowId: string, audience: Audience): Promise<void> {
  const [row] = await db
    .select({ id: userWorkflows.id })
    .from(userWorkflows)
    .where(and(eq(userWorkflows.id, workflowId), visibleTo(audience)));
  if (!row) throw notFound('workflow');
}

async function completedARun(db: DbOrTx, userId: string, workflowId: string): Promise<boolean> {
  return anyRow(
    db,
    workflowExecutions,
    and(
      eq(workflowExecutions.userId, userId),
      eq(workflowExecutions.workflowId, workflowId),
      eq(workflowExecutions.status, 'completed'),
    ),
  );
}

async function storedRating(db: DbOrTx, workflowId: string): Promise<TRatingSummary> {
  const [row] = await db
    .select({ count: workflowRatings.reviewCount, sum: workflowRatings.ratingSum })
    .from(workflowRatings)
    .where(eq(workflowRatings.workflowId, workflowId));
  return ratingSummary(row?.count ?? 0, row?.sum ?? 0);
}

/**
 * Takes the workflow's rating row for this transaction, creating it on the first review. Every writer of the
 * workflow's reviews calls this before touching them, so they take turns, and (under READ COMMITTED) each
 * later statement of the holder sees every review committed by the writers before it.
 */
async function lockRating(tx: Tx, workflowId: string): Promise<void> {
  await tx.insert(workflowRatings).values({ workflowId }).onConflictDoNothing();
  await tx
    .select({ id: workflowRatings.workflowId })
    .from(workflowRatings)
    .where(eq(workflowRatings.workflowId, workflowId))
    .for('update');
}

/**
 * Counts the visible reviews again into the rating row (locked by `lockRating` in the same transaction).
 * Counting rather than adding a difference keeps the row right whatever wrote before, at the price of one
 * indexed scan of the workflow's reviews per write: reviews are written far less often than read.
 */
async function recount(tx: Tx, workflowId: string): Promise<TRatingSummary> {
  const [row] = await tx
    .update(workflowRatings)
    .set({
      reviewCount: sql`(select count(*)::int from ${workflowReviews}
        where ${workflowReviews.workflowId} = ${workflowId} and ${workflowReviews.hiddenAt} is null)`,
      ratingSum: sql`(select coalesce(sum(${workflowReviews.rating}), 0)::int from ${workflowReviews}
        where ${workflowReviews.workflowId} = ${workflowId} and ${workflowReviews.hiddenAt} is null)`,
      version: sql`${workflowRatings.version} + 1`,
    })
    .where(eq(workflowRatings.workflowId, workflowId))
    .returning({ count: workflowRatings.reviewCount, sum: workflowRatings.ratingSum });
  return ratingSummary(row?.count ?? 0, row?.sum ?? 0);
}

/**
 * One page of the others' visible reviews, newest first, with the reader's own apart (even hidden) and whether
 * they may review.
 */
export async function listReviews(
  db: Db,
  workflowId: string,
  reader: { id: string; audience: Audience },
  page: { limit: number; offset: number },
): Promise<TReviewList> {
  await assertVisible(db, workflowId, reader.audience);
  // The reader's own review is answered once, as `mine`: the list holds the others'.
  const visible = and(
    eq(workflowReviews.workflowId, workflowId),
    isNull(workflowReviews.hiddenAt),
    ne(workflowReviews.userId, reader.id),
  );
  const [{ rows, total }, mine, rating, canReview] = await Promise.all([
    readPage(
      db,
      workflowReviews,
      visible,
      NEWEST_REVIEWS_FIRST,
      page,
      db
        .select({
          review: workflowReviews,
          author: { fullName: userProfiles.fullName, deletedAt: userProfiles.deletedAt },
        })
        .from(workflowReviews)
        .leftJoin(userProfiles, eq(userProfiles.id, workflowReviews.userId))
        .$dynamic(),
      exactTotal,
    ),
    db
      .select({ review: workflowReviews, fullName: userProfiles.fullName })
      .from(workflowReviews)
      .leftJoin(userProfiles, eq(userProfiles.id, workflowReviews.userId))
      .where(and(eq(workflowReviews.workflowId, workflowId), eq(workflowReviews.userId, reader.id))),
    storedRating(db, workflowId),
    completedARun(db, reader.id, workflowId),
  ]);
  const own = mine[0];
  return {
    reviews: rows.map((r) => toReview(r.review, r.author)),
    total,
    rating,
    mine: own ? toMine(own.review, own.fullName) : null,
    canReview,
  };
}

/**
 * Creates or replaces the person's review. Only someone who completed a run of the workflow may review it;
 * an edit keeps an admin's hiding, and a new review of someone whose review was hidden starts hidden (neither
 * editing nor deleting and writing again is a way around it).
 */
export async function putReview(
  db: Db,
  workflowId: string,
  author: { id: string; audience: Audience },
  input: { rating: number; comment?: string | null | undefined },
  now: Date,
): Promise<TMyReviewAnswer> {
  const comment = input.comment?.trim() ? input.comment.trim() : null;
  return db.transaction(async (tx) => {
    await assertVisible(tx, workflowId, author.audience);
    if (!(await completedARun(tx, author.id, workflowId))) throw forbidden('reviewNeedsCompletedRun');
    await lockRating(tx, workflowId);
    const [hold] = await tx
      .select()
      .from(reviewHolds)
      .where(and(eq(reviewHolds.workflowId, workflowId), eq(reviewHolds.userId, author.id)));
    const [review] = await tx
      .insert(workflowReviews)
      .values({
        workflowId,
        userId: author.id,
        rating: input.rating,
        comment,
        hiddenAt: hold?.hiddenAt ?? null,
        hiddenBy: hold?.hiddenBy ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [workflowReviews.workflowId, workflowReviews.userId],
        set: { rating: input.rating, comment, updatedAt: now },
      })
      .returning();
    const rating = await recount(tx, workflowId);
    const [profile] = await tx
      .select({ fullName: userProfiles.fullName })
      .from(userProfiles)
      .where(eq(userProfiles.id, author.id));
    return { review: toMine(review!, profile?.fullName ?? null), rating };
  });
}

/** Deletes the person's review; not found when they have none. */
export async function deleteReview(
  db: Db,
  workflowId: string,
  authorId: string,
): Promise<{ rating: TRatingSummary }> {
  return db.transaction(async (tx) => {
    const mine = and(eq(workflowReviews.workflowId, workflowId), eq(workflowReviews.userId, authorId));
    if (!(await anyRow(tx, workflowReviews, mine))) throw notFound('review');
    await lockRating(tx, workflowId);
    const deleted = await tx.delete(workflowReviews).where(mine).returning({ id: workflowReviews.id });
    // A second delete racing this one found the row gone once it had the lock.
    if (deleted.length === 0) throw notFound('review');
    return { rating: await recount(tx, workflowId) };
  });
}

// Admin ------------------------------------------------------------------------------------------------------

/** Every review of a workflow, hidden ones included, newest first, with the author's e-mail. */
export async function listReviewsForAdmin(
  db: Db,
  workflowId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: TAdminReview[]; total: number }> {
  const { rows, total } = await readPage(
    db,
    workflowReviews,
    eq(workflowReviews.workflowId, workflowId),
    NEWEST_REVIEWS_FIRST,
    page,
    db
      .select({ review: workflowReviews, author: userRefColumns })
      .from(workflowReviews)
      .leftJoin(userProfiles, eq(userProfiles.id, workflowReviews.userId))
      .$dynamic(),
    exactTotal,
  );
  return { rows: rows.map((r) => toAdminReview(r.review, r.author)), total };
}

/** One review as an admin sees it; not found when it is gone. */
export async function reviewForAdmin(db: DbOrTx, reviewId: string): Promise<TAdminReview> {
  const [row] = await db
    .select({ review: workflowReviews, author: userRefColumns })
    .from(workflowReviews)
    .leftJoin(userProfiles, eq(userProfiles.id, workflowReviews.userId))
    .where(eq(workflowReviews.id, reviewId));
  if (!row) throw notFound('review');
  return toAdminReview(row.review, row.author);
}

function toAdminReview(r: ReviewRow, author: { id: string; email: string } | null): TAdminReview {
  return {
    id: r.id,
    workflowId: r.workflowId,
    rating: r.rating,
    comment: r.comment,
    author: author?.id ? { id: author.id, email: author.email } : null,
    hidden: r.hiddenAt !== null,
    hiddenAt: isoOrNull(r.hiddenAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/**
 * Hides or shows a review again, in the caller's transaction (the admin module audits it in the same one),
 * and holds the hiding for its author on that workflow (review_holds) so that it outlives the review.
 * Answers what changed, or null when the review already was in that state.
 */
export async function setReviewHidden(
  tx: Tx,
  reviewId: string,
  hidden: boolean,
  adminId: string,
  now: Date,
): Promise<{ review: ReviewRow; rating: TRatingSummary } | null> {
  const [found] = await tx
    .select({ workflowId: workflowReviews.workflowId })
    .from(workflowReviews)
    .where(eq(workflowReviews.id, reviewId));
  if (!found) throw notFound('review');
  await lockRating(tx, found.workflowId);
  const [review] = await tx
    .update(workflowReviews)
    .set(hidden ? { hiddenAt: now, hiddenBy: adminId } : { hiddenAt: null, hiddenBy: null })
    .where(
      and(
        eq(workflowReviews.id, reviewId),
        hidden ? isNull(workflowReviews.hiddenAt) : sql`${workflowReviews.hiddenAt} is not null`,
      ),
    )
    .returning();
  if (!review) {
    // Deleted by its author meanwhile, or already in the asked state.
    if (!(await anyRow(tx, workflowReviews, eq(workflowReviews.id, reviewId)))) throw notFound('review');
    return null;
  }
  if (hidden) {
    await tx
      .insert(reviewHolds)
      .values({ workflowId: review.workflowId, userId: review.userId, hiddenAt: now, hiddenBy: adminId })
      .onConflictDoUpdate({
        target: [reviewHolds.workflowId, reviewHolds.userId],
        set: { hiddenAt: now, hiddenBy: adminId },
      });
  } else {
    await tx
      .delete(reviewHolds)
      .where(and(eq(reviewHolds.workflowId, review.workflowId), eq(reviewHolds.userId, review.userId)));
  }
  return { review, rating: await recount(tx, found.workflowId) };
}

/**
 * Deletes every review the person wrote, in the caller's transaction (an account's deletion): a comment is
 * their own words. Each workflow's rating row is locked in id order, so two such deletions cannot deadlock.
 */
export async function deleteReviewsOf(tx: Tx, userId: string): Promise<void> {
  const reviewed = await tx
    .select({ workflowId: workflowReviews.workflowId })
    .from(workflowReviews)
    .where(eq(workflowReviews.userId, userId))
    .orderBy(workflowReviews.workflowId);
  for (const { workflowId } of reviewed) {
    await lockRating(tx, workflowId);
    await tx
      .delete(workflowReviews)
      .where(and(eq(workflowReviews.workflowId, workflowId), eq(workflowReviews.userId, userId)));
    await recount(tx, workflowId);
  }
}

/** Every review the person wrote, hidden ones too, oldest first (their account's export). */
export async function reviewsOf(db: DbOrTx, userId: string) {
  const rows = await db
    .select()
    .from(workflowReviews)
    .where(eq(workflowReviews.userId, userId))
    .orderBy(workflowReviews.createdAt);
  return rows.map((r) => ({
    id: r.id,
    workflowId: r.workflowId,
    rating: r.rating,
    comment: r.comment,
    hidden: r.hiddenAt !== null,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }));
}
