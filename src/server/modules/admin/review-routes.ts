import { ZIdParams } from '#shared/contract/common.js';
import { errorAnswers } from '#server/lib/errors.js';
import {
  ZAdminReview,
  ZAdminReviewList,
  ZAdminReviewUpdate,
  ZReviewListQuery,
} from '#shared/contract/reviews.js';
import type { Db } from '#server/db/client.js';
import { requireAdmin } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { listReviewsForAdmin, reviewForAdmin, setReviewHidden } from '../workflows/service.js';
import { writeAudit } from './audit.js';
import { sendPage } from './routes.js';

const errors = errorAnswers(400, 401, 403, 404);
const tags = ['admin'];

/** Hides or shows a review and audits it in the same transaction; nothing is audited when nothing changed. */
async function moderateReview(db: Db, reviewId: string, hidden: boolean, adminId: string, now: Date) {
  return db.transaction(async (tx) => {
    const changed = await setReviewHidden(tx, reviewId, hidden, adminId, now);
    if (changed) {
      await writeAudit(tx, {
        adminId,
        action: hidden ? 'review_hidden' : 'review_unhidden',
        targetType: 'review',
        targetId: reviewId,
        details: {
          workflowId: changed.review.workflowId,
          authorId: changed.review.userId,
          rating: changed.review.rating,
          ratingAfter: changed.rating,
        },
      });
    }
  });
}

/** Reviews as admins see and moderate them. Mounted at /api/admin, behind the admin guard. */
export async function adminReviewRoutes(app: App, deps: AppDeps): Promise<void> {
  const { db } = deps;

  app.get(
    '/workflows/:id/reviews',
    {
      schema: {
        tags,
        operationId: 'adminListWorkflowReviews',
        summary: "A workflow's reviews, hidden ones included, newest first (total in X-Total-Count)",
        params: ZIdParams,
        querystring: ZReviewListQuery,
        response: { 200: ZAdminReviewList, ...errors },
      },
    },
    async (request, reply) =>
      sendPage(reply, await listReviewsForAdmin(db, request.params.id, request.query)),
  );

  app.patch(
    '/reviews/:id',
    {
      schema: {
        tags,
        operationId: 'adminModerateReview',
        summary: 'Hide a review (it leaves the average and the lists) or show it again; audited',
        params: ZIdParams,
        body: ZAdminReviewUpdate,
        response: { 200: ZAdminReview, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      await moderateReview(db, request.params.id, request.body.hidden, admin.id, deps.now());
      return reviewForAdmin(db, request.params.id);
    },
  );
}
