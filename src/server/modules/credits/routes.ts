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
import { ZErrorBody } from '#shared/contract/errors.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { listPlans } from './plans.js';
import { purchase } from './purchases.js';
import { cancelActiveSubscription, findActiveSubscription, toSubscriptionView } from './subscriptions.js';
import { listUserTransactions } from './transactions.js';

/** The signed-in user's credits: history, plans, purchases and the monthly plan. Mounted at /api/credits. */
export async function creditRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/transactions',
    {
      schema: {
        tags: ['credits'],
        summary: "The user's credit history, newest first (total in X-Total-Count)",
        querystring: ZTransactionListQuery,
        response: { 200: ZUserTransactionList, 400: ZErrorBody, 401: ZErrorBody },
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
        response: { 200: ZPlansResponse, 401: ZErrorBody },
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
        response: {
          200: ZPurchaseResponse,
          400: ZErrorBody,
          401: ZErrorBody,
          409: ZErrorBody,
          502: ZErrorBody,
        },
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
        response: { 200: ZSubscriptionResponse, 401: ZErrorBody },
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
        response: { 200: ZCancelSubscriptionResponse, 401: ZErrorBody, 404: ZErrorBody, 502: ZErrorBody },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { subscription: await cancelActiveSubscription(deps, user.id) };
    },
  );
}
