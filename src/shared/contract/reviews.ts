import { z } from 'zod';
import { ZUserRef } from './common.js';

/** The longest comment a review may carry, counted after trimming. */
export const REVIEW_COMMENT_MAX = 2000;
export const REVIEWS_PAGE_DEFAULT = 10;
const REVIEWS_PAGE_MAX = 50;

/** A workflow's visible reviews: the mean to one decimal (null without reviews) and how many there are. */
export const ZRatingSummary = z.object({
  average: z.number().min(1).max(5).nullable(),
  count: z.number().int().min(0),
});
export type TRatingSummary = z.infer<typeof ZRatingSummary>;

/** The mean of `count` ratings summing to `sum`, to one decimal; null when there are none. */
export function ratingSummary(count: number, sum: number): TRatingSummary {
  return { average: count > 0 ? Math.round((sum / count) * 10) / 10 : null, count };
}

/** A person's review as they send it: PUT creates it or replaces it. A blank comment is no comment. */
export const ZReviewInput = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().trim().max(REVIEW_COMMENT_MAX).nullish(),
});

export const ZReviewListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(REVIEWS_PAGE_MAX).default(REVIEWS_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

/** A review as other people read it: the author by first name and initial only. */
const ZReview = z.object({
  id: z.uuid(),
  rating: z.number().int().min(1).max(5),
  /** Plain text; the client shows it as text, never as markup. */
  comment: z.string().nullable(),
  /** "Ana G."; null when the author left no name or deleted their account. */
  authorName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TReview = z.infer<typeof ZReview>;

/** The reader's own review: theirs to edit, and they are told when an admin hid it. */
const ZMyReview = ZReview.extend({ hidden: z.boolean() });
export type TMyReview = z.infer<typeof ZMyReview>;

/** GET /api/workflows/{id}/reviews: one page of visible reviews, newest first. */
export const ZReviewList = z.object({
  reviews: z.array(ZReview),
  /** Visible reviews in all pages. */
  total: z.number().int().min(0),
  rating: ZRatingSummary,
  mine: ZMyReview.nullable(),
  /** Whether the reader completed a run of the workflow, which a review needs. */
  canReview: z.boolean(),
});
export type TReviewList = z.infer<typeof ZReviewList>;

/** The answer to a PUT: the review as stored and the workflow's rating with it. */
export const ZMyReviewAnswer = z.object({ review: ZMyReview, rating: ZRatingSummary });
export type TMyReviewAnswer = z.infer<typeof ZMyReviewAnswer>;

/** The answer to a DELETE: the workflow's rating without the review. */
export const ZReviewDeleted = z.object({ rating: ZRatingSummary });

/** A review as an admin sees it: hidden ones too, and who wrote it. */
export const ZAdminReview = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  author: ZUserRef.nullable(),
  hidden: z.boolean(),
  hiddenAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminReview = z.infer<typeof ZAdminReview>;
export const ZAdminReviewList = z.array(ZAdminReview);

export const ZAdminReviewUpdate = z.object({ hidden: z.boolean() });
