import {
  ZCancelSubscriptionResponse,
  ZIdempotencyHeaders,
  ZPlansResponse,
  ZPurchaseRequest,
  ZPurchaseResponse,
  ZSubscriptionResponse,
  ZTransactionListQuery,
  ZUserTransactionList,
} from '#shared/contract/credits.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { listPlans } from './plans.js';
import { purchase } from './purchases.js';
import { cancelActiveSubscription, findActiveSubscription, toSubscriptionView } from './subscriptions.js';
import { listUserTransactions } from './transactions.js';
import { errorAnswers } from '#server/lib/errors.js';

/** The signed-in user's credits: history, plans, purchases and the monthly plan. Mounted at /api/credits. */
export async function creditRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/transactions',
    {
      schema: {
        tags: ['credits'],
        summary: "The user's credit history, newest first (total in X-Total-Count)",
        querystring: ZTransactionListQuery,
        response: { 200: ZUserTransactionList, ...errorAnswers(400, 401) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { rows, total } = await listUserTransactions(deps.db, user.id, request.query);
      void reply.header('x-total-count', String(total));
      return rows;
    },
  );

  app.get(
    '/plans',
    {
      schema: {
        tags: ['credits'],
        summary: 'Credit packs and monthly plans on sale, and the payment provider in use',
        response: { 200: ZPlansResponse, ...errorAnswers(401) },
      },
    },
    async (request) => {
      await requireUser(request);
      return listPlans(deps);
    },
  );

  app.post(
    '/purchase',
    {
      schema: {
        tags: ['credits'],
        summary: 'Buy a pack or a monthly plan (demo: granted at once; Stripe: a checkout URL)',
        headers: ZIdempotencyHeaders,
        body: ZPurchaseRequest,
        response: { 200: ZPurchaseResponse, ...errorAnswers(400, 401, 409, 502) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return purchase(deps, user, request.body, request.headers['idempotency-key']);
    },
  );

  app.get(
    '/subscription',
    {
      schema: {
        tags: ['credits'],
        summary: "The user's active monthly plan, or null",
        response: { 200: ZSubscriptionResponse, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const active = await findActiveSubscription(deps.db, user.id);
      return { subscription: active ? toSubscriptionView(active) : null };
    },
  );

  app.post(
    '/subscription/cancel',
    {
      schema: {
        tags: ['credits'],
        summary: 'Cancel the active monthly plan: no more renewals, credits already granted stay',
        response: { 200: ZCancelSubscriptionResponse, ...errorAnswers(401, 404, 502) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { subscription: await cancelActiveSubscription(deps, user.id) };
    },
  );
}
